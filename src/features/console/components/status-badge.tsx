import { useTranslation } from '@/lib/i18n';

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('console');
  return <span className={`badge badge-${status}`}>{t(`status.${status}`, { defaultValue: status })}</span>;
}
