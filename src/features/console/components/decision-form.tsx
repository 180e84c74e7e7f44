import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { reviewDecisions, type ReviewDecision } from '@/shared/contract/verification';
import type { Flow } from '@/shared/flow';
import { MAX_REVIEW_NOTE, REASON_NEEDING_NOTE } from '@/shared/review-reasons';
import { useDecideVerification } from '../hooks/use-console-data';
import { errorMessage } from '../lib/error-message';
import { reasonOptions } from '../lib/review-reasons';

type Field = 'decision' | 'reason' | 'note';
type Errors = Partial<Record<Field, string>>;

/** The BFF's codes for a refused decision, by the field they are about. */
const fieldOfCode: Record<string, Field> = {
  'review.reasonRequired': 'reason',
  'review.unknownReason': 'reason',
  'review.noteRequired': 'note',
  'review.noteTooLong': 'note',
};

/** A field's mistake, tied to it by its id (aria-describedby). */
function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p id={id} className="error">
      {text}
    </p>
  ) : null;
}

/**
 * A reviewer's decision: one of the three, a reason from the flow's list for it (or the default
 * set), an optional note. Mistakes are shown by their field and the first one gets the focus, so
 * that a screen reader reads it with the field.
 */
export function DecisionForm({
  id,
  flow,
  flowPending,
}: {
  id: string;
  flow: Flow | undefined;
  /** The flow's reasons are not known yet: the default set may not be the flow's. */
  flowPending: boolean;
}) {
  const { t, i18n } = useTranslation('console');
  const language = i18n.language.slice(0, 2) as 'en' | 'es' | 'pt';
  const decide = useDecideVerification(id);
  const [decision, setDecision] = useState<ReviewDecision | null>(null);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  // Focused once the error is rendered and tied to the field, so that it is read with it.
  const [focusTarget, setFocusTarget] = useState<{ field: Field } | null>(null);
  const base = useId();
  // The control each field's mistake sends the focus to (the first radio for the decision).
  const controlId = (field: Field) => `${base}-${field}`;
  const options = decision ? reasonOptions(t, flow, language, decision) : [];
  const errorId = (field: Field) => `${base}-${field}-error`;
  const described = (field: Field, ...others: string[]) =>
    [...others, errors[field] ? errorId(field) : null].filter(Boolean).join(' ') || undefined;

  useEffect(() => {
    if (focusTarget) document.getElementById(`${base}-${focusTarget.field}`)?.focus();
  }, [focusTarget, base]);

  const show = (found: Errors) => {
    setErrors(found);
    const first = (['decision', 'reason', 'note'] as const).find((field) => found[field]);
    if (first) setFocusTarget({ field: first });
    return !first;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    const found: Errors = {};
    if (!decision) found.decision = t('review.errors.decisionRequired');
    if (!reason) found.reason = t('review.errors.reasonRequired');
    if (trimmed.length > MAX_REVIEW_NOTE)
      found.note = t('review.errors.noteTooLong', { max: MAX_REVIEW_NOTE });
    else if (reason === REASON_NEEDING_NOTE && !trimmed) found.note = t('review.errors.noteRequired');
    if (!show(found) || !decision) return;
    decide.mutate(
      { status: decision, reason, ...(trimmed ? { note: trimmed } : {}) },
      {
        onSuccess: () => {
          setDecision(null);
          setReason('');
          setNote('');
        },
        onError: (error) => {
          const code = error instanceof ApiError ? error.body.code : '';
          const field = fieldOfCode[code];
          if (field)
            show({ [field]: t(`review.errors.${code.slice('review.'.length)}`, { max: MAX_REVIEW_NOTE }) });
        },
      },
    );
  };

  const serverError =
    decide.isError && !(decide.error instanceof ApiError && fieldOfCode[decide.error.body.code]);

  return (
    <form noValidate onSubmit={submit} className="decision-form">
      <fieldset className="radio-group" aria-describedby={described('decision')}>
        <legend>{t('review.decision')}</legend>
        {reviewDecisions.map((value, i) => (
          <label key={value}>
            <input
              id={i === 0 ? controlId('decision') : undefined}
              type="radio"
              name={`${base}-decision`}
              value={value}
              checked={decision === value}
              onChange={() => {
                setDecision(value);
                // A reason of another decision's list is no reason for this one.
                setReason('');
                setErrors((e) => ({ ...e, decision: undefined }));
              }}
            />
            {t(`status.${value}`)}
          </label>
        ))}
        <FieldError id={errorId('decision')} text={errors.decision} />
      </fieldset>
      <div className="field">
        <label htmlFor={controlId('reason')}>{t('review.reason')}</label>
        <select
          id={controlId('reason')}
          required
          value={reason}
          disabled={!decision || flowPending}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={described('reason')}
          onChange={(e) => {
            setReason(e.target.value);
            setErrors((found) => ({ ...found, reason: undefined, note: undefined }));
          }}
        >
          <option value="">{decision ? t('review.chooseReason') : t('review.chooseDecisionFirst')}</option>
          {options.map((option) => (
            <option key={option.code} value={option.code}>
              {option.label}
            </option>
          ))}
        </select>
        <FieldError id={errorId('reason')} text={errors.reason} />
      </div>
      <div className="field">
        <label htmlFor={controlId('note')}>{t('review.note')}</label>
        <textarea
          id={controlId('note')}
          rows={3}
          maxLength={MAX_REVIEW_NOTE}
          value={note}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={described('note', `${base}-note-hint`)}
          onChange={(e) => {
            setNote(e.target.value);
            setErrors((found) => ({ ...found, note: undefined }));
          }}
        />
        <p id={`${base}-note-hint`} className="hint">
          {t('review.noteHint', { max: MAX_REVIEW_NOTE })}{' '}
          {t('review.noteCount', { count: note.length, max: MAX_REVIEW_NOTE })}
        </p>
        <FieldError id={errorId('note')} text={errors.note} />
      </div>
      <button type="submit" disabled={decide.isPending}>
        {decide.isPending ? t('review.saving') : t('review.submit')}
      </button>
      {serverError && <p role="alert">{errorMessage(decide.error)}</p>}
      {decide.isSuccess && <p role="status">{t('review.saved')}</p>}
    </form>
  );
}
