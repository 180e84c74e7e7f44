import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from '@/lib/i18n';
import { customFieldValuesSchema, toCustomFields } from '@/shared/custom-fields';
import type { CustomFieldDefinition } from '@/shared/flow';
import { DateField } from './date-field';
import type { StepProps } from './step-props';

const emptyValue = (field: CustomFieldDefinition) => (field.type === 'checkbox' ? 'false' : '');

// Loaded lazily (react-hook-form and zod weigh on the first screen): the form comes from the
// flow's definitions and is checked by the same schema the service applies to the descriptor.
export default function CustomFieldsStep({ step, capture, save, next }: StepProps<'custom-fields'>) {
  const { t } = useTranslation('wizard');
  const schema = useMemo(() => customFieldValuesSchema(step.fields), [step.fields]);
  const saved = capture?.kind === 'custom-fields' ? capture.values : {};
  const {
    register,
    control,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<Record<string, string>>({
    // The schema's values are all strings; its inferred type is wider than the form's.
    resolver: zodResolver(schema) as unknown as Resolver<Record<string, string>>,
    defaultValues: Object.fromEntries(step.fields.map((f) => [f.name, saved[f.name] ?? emptyValue(f)])),
  });

  // One message per rule, naming the field and what it must look like.
  const messageFor = (field: CustomFieldDefinition, value: string | undefined) => {
    const label = field.label ?? field.name;
    if (field.type === 'checkbox') return t('fields.mustTick', { label });
    if (!value) return t('fields.required', { label });
    if (field.type === 'date') return t('fields.invalidDate', { label });
    if (field.type === 'select') return t('fields.chooseOption', { label });
    return field.hint
      ? t('fields.formatHint', { label, hint: field.hint })
      : t('fields.invalidFormat', { label });
  };

  const submit = handleSubmit((values) => {
    save({ kind: 'custom-fields', values, fields: toCustomFields(step.fields, values) });
    next();
  });

  return (
    <form onSubmit={submit} noValidate className="stack">
      <p className="muted">{t('fields.hint')}</p>
      {step.fields.map((field) => {
        const id = `field-${field.name}`;
        const errorId = `${id}-error`;
        const hintId = `${id}-hint`;
        const label = field.label ?? field.name;
        const error = errors[field.name];
        const describedBy =
          [field.hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
        const errorText = error && (
          <span id={errorId} className="error" role="alert">
            {messageFor(field, getValues(field.name))}
          </span>
        );
        const hint = field.hint && (
          <span id={hintId} className="muted field-hint">
            {field.hint}
          </span>
        );
        const registered = register(field.name);
        if (field.type === 'checkbox') {
          return (
            <div key={field.name} className="field">
              <Controller
                control={control}
                name={field.name}
                render={({ field: f }) => (
                  <label className="choice" htmlFor={id}>
                    <input
                      id={id}
                      type="checkbox"
                      checked={f.value === 'true'}
                      onChange={(event) => f.onChange(event.target.checked ? 'true' : 'false')}
                      onBlur={f.onBlur}
                      ref={f.ref}
                      aria-invalid={!!error}
                      aria-describedby={describedBy}
                    />
                    {label}
                    {field.required && <span aria-hidden="true"> *</span>}
                  </label>
                )}
              />
              {errorText}
            </div>
          );
        }
        if (field.type === 'date') {
          return (
            <div key={field.name} className="field">
              <Controller
                control={control}
                name={field.name}
                render={({ field: f }) => (
                  <DateField
                    id={id}
                    label={label}
                    required={!!field.required}
                    value={f.value}
                    invalid={!!error}
                    describedBy={describedBy}
                    onChange={f.onChange}
                    onBlur={f.onBlur}
                  />
                )}
              />
              {hint}
              {errorText}
            </div>
          );
        }
        return (
          <div key={field.name} className="field">
            <label htmlFor={id}>
              {label}
              {field.required && <span aria-hidden="true"> *</span>}
            </label>
            {field.type === 'select' ? (
              <select
                id={id}
                aria-invalid={!!error}
                aria-describedby={describedBy}
                required={field.required}
                {...registered}
              >
                <option value="">{t('fields.choose')}</option>
                {(field.options ?? []).map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                type="text"
                aria-invalid={!!error}
                aria-describedby={describedBy}
                required={field.required}
                maxLength={field.maxLength}
                {...(field.uppercase
                  ? { autoCapitalize: 'characters', spellCheck: false, autoComplete: 'off' }
                  : {})}
                {...registered}
                onChange={(event) => {
                  // Letters go upper case as they are typed where the value is upper case.
                  if (field.uppercase) {
                    const { selectionStart, selectionEnd } = event.target;
                    event.target.value = event.target.value.toUpperCase();
                    event.target.setSelectionRange(selectionStart, selectionEnd);
                  }
                  return registered.onChange(event);
                }}
              />
            )}
            {hint}
            {errorText}
          </div>
        );
      })}
      <p className="muted">{t('fields.requiredNote')}</p>
      <div className="actions">
        <button type="submit" disabled={isSubmitting}>
          {t('actions.continue')}
        </button>
      </div>
    </form>
  );
}
