import { lazy, Suspense } from 'react';
import { useTranslation } from '@/lib/i18n';
import { useBrand } from '@/lib/brand';
import { Link } from '@/lib/link';
import { matchPath, useLocation } from '@/lib/router';
import { LanguageSwitcher } from './components/language-switcher';

// Each route's code loads when the route is visited, so the first screen stays small. React Query
// is the console's business (it brings its own provider), so the wizard's first screen goes without it.
const FlowListPage = lazy(() => import('@/features/wizard/routes/flow-list-page'));
const WizardPage = lazy(() => import('@/features/wizard/routes/wizard-page'));
const HandoffPage = lazy(() => import('@/features/wizard/routes/handoff-page'));
const ConsoleApp = lazy(() => import('@/features/console/routes/console-app'));

function Routes() {
  const location = useLocation();
  const pathname = location.split('?')[0];
  const { t } = useTranslation();
  if (pathname === '/') return <FlowListPage />;
  const verify = matchPath('/verify/:flowId', pathname);
  if (verify) return <WizardPage key={verify.flowId} flowId={verify.flowId} />;
  const handoff = matchPath('/handoff/:token', pathname);
  if (handoff) return <HandoffPage key={handoff.token} token={handoff.token} />;
  if (pathname === '/console' || pathname.startsWith('/console/')) return <ConsoleApp />;
  return <p role="alert">{t('notFound')}</p>;
}

export function App() {
  const { t } = useTranslation();
  const brand = useBrand();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header className="app-header">
        <Link className="app-name" href="/">
          {brand.logoUrl && <img src={brand.logoUrl} alt="" height={32} className="app-logo" />}
          {brand.name}
        </Link>
        <LanguageSwitcher />
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p aria-live="polite">{t('loading')}</p>}>
          <Routes />
        </Suspense>
      </main>
    </>
  );
}
