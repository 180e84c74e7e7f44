import { useTranslation } from '@/lib/i18n';

type Props = {
  /** Step titles in order; the review comes last. */
  titles: string[];
  /** Index of the current step, titles.length when every step is done. */
  current: number;
};

/** The steps in order, the current one marked; on a phone only the current title is written out. */
export function WizardStepper({ titles, current }: Props) {
  const { t } = useTranslation('wizard');
  return (
    <nav aria-label={t('stepper.label')} className="stepper">
      <ol>
        {titles.map((title, i) => {
          const state = i < current ? 'done' : i === current ? 'current' : 'todo';
          return (
            <li
              key={`${i}-${title}`}
              className={`stepper-item ${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="stepper-dot" aria-hidden="true">
                {state === 'done' ? '✓' : i + 1}
              </span>
              <span className="stepper-title">
                {title}
                {state === 'done' && <span className="visually-hidden"> ({t('stepper.done')})</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
