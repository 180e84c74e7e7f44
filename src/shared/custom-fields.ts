import { z } from 'zod';
import type { CustomFieldDefinition } from './flow';
import type { CustomField } from './contract/send-input';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (value: string) => {
  if (!isoDate.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

function valueSchema(field: CustomFieldDefinition): z.ZodType<string> {
  switch (field.type) {
    case 'checkbox':
      return field.required ? z.literal('true') : z.enum(['true', 'false']);
    case 'date': {
      const date = z.string().refine(isRealDate, 'a date as YYYY-MM-DD');
      return field.required ? date : z.union([z.literal(''), date]);
    }
    case 'select': {
      const values = (field.options ?? []).map((o) => o.value);
      const option = z.string().refine((v) => values.includes(v), 'one of the options');
      return field.required ? option : z.union([z.literal(''), option]);
    }
    case 'text': {
      let text = z.string().trim().max(1000);
      if (field.required) text = text.min(1, 'required');
      if (field.pattern) {
        const pattern = new RegExp(`^(?:${field.pattern})$`);
        return text.refine((v) => v === '' || pattern.test(v), 'the expected format');
      }
      return text;
    }
  }
}

/**
 * The values of a custom-fields merit as a form object { [name]: string }: the one schema used by
 * the wizard's form and by the service when it checks a custom-fields descriptor.
 */
export function customFieldValuesSchema(fields: readonly CustomFieldDefinition[]) {
  // A field that is not required may be left out altogether, as a client of the hosted API does.
  return z.object(
    Object.fromEntries(fields.map((f) => [f.name, f.required ? valueSchema(f) : valueSchema(f).optional()])),
  );
}

/** Form values → the descriptor's data.fields, carrying each field's mapping. */
export function toCustomFields(
  fields: readonly CustomFieldDefinition[],
  values: Record<string, string>,
): CustomField[] {
  return fields.map((f) => ({
    name: f.name,
    type: 'atomic' as const,
    atomicFieldParams: {
      type: f.type,
      value: values[f.name] ?? (f.type === 'checkbox' ? 'false' : ''),
      ...(f.mapping ? { mapping: f.mapping } : {}),
    },
  }));
}

/** A descriptor's data.fields → form values, for the service's check. */
export function fromCustomFields(fields: readonly CustomField[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, f.atomicFieldParams.value]));
}
