import { useTranslation } from '@/lib/i18n';

/** What went wrong and what to do, for a browser check reason or a service error code. */
export function ProblemMessage({ code, title }: { code: string; title?: string }) {
  const { t } = useTranslation('wizard');
  return (
    <div role="alert" className="problem">
      {title && <p className="problem-title">{title}</p>}
      <p className="problem-what">{t(`errors.${code}.what`, { defaultValue: t('errors.unknown.what') })}</p>
      <p className="problem-todo">{t(`errors.${code}.todo`, { defaultValue: t('errors.unknown.todo') })}</p>
    </div>
  );
}
