import { QueryClient, QueryClientContext, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '@/lib/api-client';
import { useTranslation, addTranslations } from '@/lib/i18n';
import { matchPath, useLocation } from '@/lib/router';
import { consoleKeys } from '../api/staff-api';
import { ConsoleNav, sectionLabels, type Section } from '../components/console-nav';
import { LoadError, Loading } from '../components/query-state';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useSession } from '../hooks/use-session';
import { useStaffEvents } from '../hooks/use-staff-events';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import { CreditChecksPage } from './credit-checks-page';
import { FlowsPage } from './flows-page';
import { LoginPage } from './login-page';
import { VerificationPage } from './verification-page';
import { VerificationsPage } from './verifications-page';
import '../components/console.css';

addTranslations('console', { en, es, pt });

/** The shell may or may not provide a QueryClient (it may move it out for bundle size); the console works either way. */
export default function ConsoleApp() {
  const shared = useContext(QueryClientContext);
  if (shared) return <Console />;
  return (
    <OwnQueryClient>
      <Console />
    </OwnQueryClient>
  );
}

function OwnQueryClient({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function Console() {
  const session = useSession();
  if (session.isPending) return <Loading />;
  if (session.isError) return <LoadError error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data) return <LoginPage />;
  return <ConsoleShell />;
}

/** A 401 from any console call means the session ended (expired, logged out elsewhere): back to the login form. */
function useLogoutOnUnauthorized() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        const error = event.query.state.error;
        if (event.type === 'updated' && error instanceof ApiError && error.status === 401) {
          queryClient.setQueryData(consoleKeys.me, false);
        }
      }),
    [queryClient],
  );
}

function ConsoleShell() {
  const { t } = useTranslation('console');
  const location = useLocation();
  const [pathname, search = ''] = location.split('?');
  const stream = useStaffEvents();
  useLogoutOnUnauthorized();
  const container = useRef<HTMLDivElement>(null);
  const firstPath = useRef(pathname);
  useEffect(() => {
    // After an in-console navigation, screen readers start at the new page's heading, not at the link clicked.
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    const heading = container.current?.querySelector('h1');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
  }, [pathname]);

  let section: Section | null = null;
  let page: ReactNode;
  const detail = matchPath('/console/verifications/:id', pathname);
  if (pathname === '/console' || pathname === '/console/' || pathname === '/console/flows') {
    section = 'flows';
    page = <FlowsPage />;
  } else if (pathname === '/console/verifications') {
    section = 'verifications';
    page = <VerificationsPage search={search} />;
  } else if (detail) {
    section = 'verifications';
    page = <VerificationPage id={detail.id} />;
  } else if (pathname === '/console/credit-checks') {
    section = 'credit-checks';
    page = <CreditChecksPage />;
  } else {
    page = <p role="alert">{t('common.notFound')}</p>;
  }

  const title = section ? t(sectionLabels[section]) : t('common.notFound');
  useDocumentTitle(`${title} · ${t('nav.label')}`);

  return (
    <div className="console" ref={container}>
      <ConsoleNav current={section} stream={stream} />
      {page}
    </div>
  );
}
