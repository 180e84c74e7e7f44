import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { navigate } from '@/lib/router';
import type { IdentityStatus } from '@/shared/contract/verification';
import type { Flow } from '@/shared/flow';
import { useDeleteVerification } from '../hooks/use-console-data';
import { errorMessage } from '../lib/error-message';
import { DecisionForm } from './decision-form';

/** A reviewer's decision (with its reason and note) and erasure, with a confirmation. */
export function ReviewActions({
  id,
  status,
  flow,
  flowPending,
}: {
  id: string;
  status: IdentityStatus | null;
  flow: Flow | undefined;
  flowPending: boolean;
}) {
  const { t } = useTranslation('console');
  const erase = useDeleteVerification(id);
  const [confirming, setConfirming] = useState(false);
  const finished = status !== null && status !== 'pending' && status !== 'running';

  return (
    <section aria-labelledby="detail-review" className="card">
      <h2 id="detail-review">{t('review.title')}</h2>
      {finished ? (
        <DecisionForm id={id} flow={flow} flowPending={flowPending} />
      ) : (
        <p>{t('review.notFinished')}</p>
      )}
      <h3>{t('review.eraseTitle')}</h3>
      {!confirming ? (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          {t('review.erase')}
        </button>
      ) : (
        <div
          role="alertdialog"
          aria-labelledby="detail-erase-question"
          aria-describedby="detail-erase-what"
          className="confirm danger-zone"
        >
          <p id="detail-erase-question">
            <strong>{t('review.eraseQuestion', { id })}</strong>
          </p>
          <div id="detail-erase-what">
            <p>{t('review.eraseWhatTitle')}</p>
            <ul>
              {(['person', 'media', 'answers', 'history'] as const).map((part) => (
                <li key={part}>{t(`review.eraseWhat.${part}`)}</li>
              ))}
            </ul>
            <p>{t('review.eraseForGood')}</p>
          </div>
          <button
            type="button"
            className="danger"
            disabled={erase.isPending}
            onClick={() =>
              erase.mutate(undefined, {
                onSuccess: () => navigate(`/console/verifications?deleted=${encodeURIComponent(id)}`),
              })
            }
          >
            {t('review.eraseConfirm')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('review.eraseCancel')}
          </button>
        </div>
      )}
      {erase.isError && <p role="alert">{errorMessage(erase.error)}</p>}
    </section>
  );
}
