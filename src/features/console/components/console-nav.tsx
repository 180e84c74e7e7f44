import { useTranslation } from '@/lib/i18n';
import { useLogout } from '../hooks/use-session';
import type { StreamState } from '../hooks/use-staff-events';
import { ConsoleLink } from './console-link';

export type Section = 'flows' | 'verifications' | 'credit-checks';

/** The translation key naming each section, in the nav and in the tab's title. */
export const sectionLabels: Record<Section, string> = {
  flows: 'nav.flows',
  verifications: 'nav.verifications',
  'credit-checks': 'nav.creditChecks',
};

const links: { section: Section; href: string }[] = [
  { section: 'flows', href: '/console/flows' },
  { section: 'verifications', href: '/console/verifications' },
  { section: 'credit-checks', href: '/console/credit-checks' },
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
                {t(sectionLabels[link.section])}
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
