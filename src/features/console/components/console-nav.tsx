import { useTranslation } from 'react-i18next';
import { useLogout } from '../hooks/use-session';
import type { StreamState } from '../hooks/use-staff-events';
import { ConsoleLink } from './console-link';

export type Section = 'flows' | 'verifications' | 'credit-checks';

const links: { section: Section; href: string; label: string }[] = [
  { section: 'flows', href: '/console/flows', label: 'nav.flows' },
  { section: 'verifications', href: '/console/verifications', label: 'nav.verifications' },
  { section: 'credit-checks', href: '/console/credit-checks', label: 'nav.creditChecks' },
];

export function ConsoleNav({ current, stream }: { current: Section | null; stream: StreamState }) {
  const { t } = useTranslation('console');
  const logout = useLogout();
  return (
    <div className="console-bar">
      <nav aria-label={t('nav.label')}>
        <ul>
          {links.map((link) => (
            <li key={link.section}>
              <ConsoleLink href={link.href} aria-current={current === link.section ? 'page' : undefined}>
                {t(link.label)}
              </ConsoleLink>
            </li>
          ))}
        </ul>
      </nav>
      <p className={`stream stream-${stream}`}>{t(`stream.${stream}`)}</p>
      <button type="button" className="secondary" onClick={() => logout.mutate()} disabled={logout.isPending}>
        {t('nav.logout')}
      </button>
    </div>
  );
}
