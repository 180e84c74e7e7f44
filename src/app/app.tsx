import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from '@/lib/router';
import { LanguageSwitcher } from './components/language-switcher';

// Each route's code loads when the route is visited, so the first screen stays small.
const FlowListPage = lazy(() => import('@/features/wizard/routes/flow-list-page'));
const WizardPage = lazy(() => import('@/features/wizard/routes/wizard-page'));
const ConsoleApp = lazy(() => import('@/features/console/routes/console-app'));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

function Routes() {
  const location = useLocation();
  const pathname = location.split('?')[0];
  const { t } = useTranslation();
  if (pathname === '/') return <FlowListPage />;
  const verify = matchPath('/verify/:flowId', pathname);
  if (verify) return <WizardPage flowId={verify.flowId} />;
  if (pathname === '/console' || pathname.startsWith('/console/')) return <ConsoleApp />;
  return <p role="alert">{t('notFound')}</p>;
}

export function App() {
  const { t } = useTranslation();
  return (
    <QueryClientProvider client={queryClient}>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <header className="app-header">
        <a className="app-name" href="/">
          {t('appName')}
        </a>
        <LanguageSwitcher />
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p aria-live="polite">{t('loading')}</p>}>
          <Routes />
        </Suspense>
      </main>
    </QueryClientProvider>
  );
}
