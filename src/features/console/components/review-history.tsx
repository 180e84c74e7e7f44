import { useTranslation } from '@/lib/i18n';
import type { ReviewRecord } from '@/shared/contract/bff-api';
import type { Flow } from '@/shared/flow';
import { formatDateTime } from '../lib/format';
import { reasonLabel } from '../lib/review-reasons';
import { DetailCard } from './verification-sections';
import { KvRow } from './value-view';
import { StatusBadge } from './status-badge';

/** The reviewers' decisions on a verification, newest first: what, why, who and when. */
export function ReviewHistory({ reviews, flow }: { reviews: ReviewRecord[]; flow: Flow | undefined }) {
  const { t, i18n } = useTranslation('console');
  const language = i18n.language.slice(0, 2) as 'en' | 'es' | 'pt';
  return (
    <DetailCard id="detail-review-history" title={t('review.history.title')}>
      {reviews.length === 0 ? (
        <p>{t('review.history.empty')}</p>
      ) : (
        <ol className="review-history">
          {reviews.map((review) => (
            <li key={review.id}>
              <p className="review-head">
                <StatusBadge status={review.decision} />{' '}
                <span>
                  {review.byYou
                    ? t('review.history.byYou', { reviewer: review.reviewer })
                    : t('review.history.by', { reviewer: review.reviewer })}
                </span>
              </p>
              <dl className="kv">
                <KvRow label={t('review.history.when')}>
                  <time dateTime={review.decidedAt}>{formatDateTime(review.decidedAt, i18n.language)}</time>
                </KvRow>
                <KvRow label={t('review.history.reasonLabel')}>
                  {reasonLabel(t, flow, language, review.reason)}
                </KvRow>
                {review.note && <KvRow label={t('review.history.noteLabel')}>{review.note}</KvRow>}
              </dl>
            </li>
          ))}
        </ol>
      )}
    </DetailCard>
  );
}
