import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { ApiError } from '@/lib/api-client';
import { useDocumentTitle } from '../hooks/use-document-title';
import { useLogin } from '../hooks/use-session';

export function LoginPage() {
  const { t } = useTranslation('console');
  const login = useLogin();
  useDocumentTitle(`${t('login.title')} · ${t('nav.label')}`);
  const [password, setPassword] = useState('');
  const [empty, setEmpty] = useState(false);
  const passwordId = useId();
  const errorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    login.mutate(password);
  };

  const failureMessage = (failure: Error) => {
    const status = failure instanceof ApiError ? failure.status : null;
    if (status === 401) return t('login.wrongPassword');
    if (status === 429) return t('login.rateLimited');
    return t('login.failed', { message: failure.message });
  };
  const message = empty ? t('login.required') : login.error ? failureMessage(login.error) : null;

  return (
    <section className="console login" aria-labelledby="console-login-title">
      <h1 id="console-login-title">{t('login.title')}</h1>
      <p>{t('login.intro')}</p>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={passwordId}>{t('login.password')}</label>
          <input
            id={passwordId}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? errorId : undefined}
          />
          {message && (
            <p id={errorId} role="alert" className="error">
              {message}
            </p>
          )}
        </div>
        <button type="submit" disabled={login.isPending}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </section>
  );
}
