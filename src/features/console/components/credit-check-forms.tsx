import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { arCreditCheckFormSchema, brCreditCheckFormSchema } from '@/shared/contract/credit-check';
import { errorMessage } from '../lib/error-message';
import { useCreateCreditCheck } from '../hooks/use-console-data';
import { FormField } from './form-field';

type ArMode = 'cuit' | 'dni';
type ArValues = { cuit?: string; dni?: string; fullName?: string };

function SendError({ error }: { error: unknown }) {
  const { t } = useTranslation('console');
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {t('creditChecks.sendFailed', { message: errorMessage(error) })}
    </p>
  );
}

export function ArCreditCheckForm({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useTranslation('console');
  const [mode, setMode] = useState<ArMode>('cuit');
  const create = useCreateCreditCheck('ar');
  const name = useId();
  // shouldUnregister: the hidden form's fields leave the values, so the schema sees one form only.
  const { register, handleSubmit, formState, clearErrors } = useForm<ArValues>({
    resolver: zodResolver(arCreditCheckFormSchema),
    shouldUnregister: true,
  });
  const fieldError = (field: keyof ArValues) =>
    formState.errors[field] ? t(`creditChecks.errors.${field}`) : null;
  const submit = handleSubmit((values) => {
    const body = Object.fromEntries(
      Object.entries(values).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
    create.mutate(body, { onSuccess: (record) => onCreated(record.id) });
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="credit-ar-title">
      <h2 id="credit-ar-title">{t('creditChecks.ar.heading')}</h2>
      <fieldset className="radio-group">
        <legend>{t('creditChecks.ar.form')}</legend>
        {(['cuit', 'dni'] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name={name}
              value={value}
              checked={mode === value}
              onChange={() => {
                setMode(value);
                clearErrors();
              }}
            />
            {t(value === 'cuit' ? 'creditChecks.ar.byCuit' : 'creditChecks.ar.byDni')}
          </label>
        ))}
      </fieldset>
      {mode === 'cuit' ? (
        <FormField
          label={t('creditChecks.ar.cuit')}
          hint={t('creditChecks.ar.cuitHint')}
          error={fieldError('cuit')}
          inputMode="numeric"
          autoComplete="off"
          {...register('cuit')}
        />
      ) : (
        <>
          <FormField
            label={t('creditChecks.ar.dni')}
            hint={t('creditChecks.ar.dniHint')}
            error={fieldError('dni')}
            inputMode="numeric"
            autoComplete="off"
            {...register('dni')}
          />
          <FormField
            label={t('creditChecks.ar.fullName')}
            error={fieldError('fullName')}
            autoComplete="off"
            {...register('fullName')}
          />
        </>
      )}
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? t('creditChecks.submitting') : t('creditChecks.ar.submit')}
      </button>
      <SendError error={create.error} />
    </form>
  );
}

export function BrCreditCheckForm({ onCreated }: { onCreated: (id: string) => void }) {
  const { t } = useTranslation('console');
  const create = useCreateCreditCheck('br');
  const { register, handleSubmit, formState } = useForm<{ cpf: string }>({
    resolver: zodResolver(brCreditCheckFormSchema),
  });
  const submit = handleSubmit((values) =>
    create.mutate(values, { onSuccess: (record) => onCreated(record.id) }),
  );
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="credit-br-title">
      <h2 id="credit-br-title">{t('creditChecks.br.heading')}</h2>
      <FormField
        label={t('creditChecks.br.cpf')}
        hint={t('creditChecks.br.cpfHint')}
        error={formState.errors.cpf ? t('creditChecks.errors.cpf') : null}
        inputMode="numeric"
        autoComplete="off"
        {...register('cpf')}
      />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? t('creditChecks.submitting') : t('creditChecks.br.submit')}
      </button>
      <SendError error={create.error} />
    </form>
  );
}
