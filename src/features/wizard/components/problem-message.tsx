import { useTranslation } from '@/lib/i18n';

/** What went wrong and what to do, for a browser check reason or a service error code. */
export function ProblemMessage({
  code,
  title,
  values,
}: {
  code: string;
  title?: string;
  /** Values the prompt names, e.g. `date` of an expired document. */
  values?: Record<string, string>;
}) {
  const { t } = useTranslation('wizard');
  return (
    <div role="alert" className="problem">
      {title && <p className="problem-title">{title}</p>}
      <p className="problem-what">
        {t(`errors.${code}.what`, { ...values, defaultValue: t('errors.unknown.what') })}
      </p>
      <p className="problem-todo">
        {t(`errors.${code}.todo`, { ...values, defaultValue: t('errors.unknown.todo') })}
      </p>
    </div>
  );
}
