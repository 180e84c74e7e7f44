import { z } from 'zod';

const digitsOf = (value: string) => value.replace(/[.\-/\s]/g, '');

/** Argentine CUIT/CUIL: 11 digits, modulo-11 check digit. */
export function isValidCuit(value: string): boolean {
  const digits = digitsOf(value);
  if (!/^\d{11}$/.test(digits)) return false;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  let check = 11 - (sum % 11);
  if (check === 11) check = 0;
  if (check === 10) return false;
  return check === Number(digits[10]);
}

/** Brazilian CPF: 11 digits, two modulo-11 check digits, not all digits equal. */
export function isValidCpf(value: string): boolean {
  const digits = digitsOf(value);
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const checkDigit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return checkDigit(9) === Number(digits[9]) && checkDigit(10) === Number(digits[10]);
}

export const normalizeTaxId = digitsOf;

const callbackUrl = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'an http(s) URL');

export const cuitSchema = z.string().refine(isValidCuit, 'a CUIT with a valid check digit');
export const cpfSchema = z.string().refine(isValidCpf, 'a CPF with valid check digits');
export const dniSchema = z.string().regex(/^\d{1,2}\.?\d{3}\.?\d{3}$/, 'a DNI of 7 or 8 digits');
export const fullNameSchema = z.string().trim().min(3).max(120);

type ArForms = { cuit?: string; dni?: string; fullName?: string };
/** Argentina: either cuit, or dni with fullName; never both (wire contract §8). */
function checkArForms(body: ArForms, ctx: z.RefinementCtx) {
  const formA = body.cuit !== undefined;
  const formB = body.dni !== undefined || body.fullName !== undefined;
  if (formA === formB) {
    ctx.addIssue({ code: 'custom', path: ['cuit'], message: 'send either cuit, or dni with fullName' });
  } else if (formB && (body.dni === undefined || body.fullName === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [body.dni === undefined ? 'dni' : 'fullName'],
      message: 'dni and fullName go together',
    });
  }
}

const arFields = {
  cuit: cuitSchema.optional(),
  dni: dniSchema.optional(),
  fullName: fullNameSchema.optional(),
};

export const arCreditCheckSchema = z.object({ ...arFields, callbackUrl }).superRefine(checkArForms);
export type ArCreditCheck = z.infer<typeof arCreditCheckSchema>;

export const brCreditCheckSchema = z.object({ cpf: cpfSchema, callbackUrl });
export type BrCreditCheck = z.infer<typeof brCreditCheckSchema>;

/** The staff console's forms: the same bodies without callbackUrl, which the BFF fills in. */
export const arCreditCheckFormSchema = z.object(arFields).superRefine(checkArForms);
export const brCreditCheckFormSchema = z.object({ cpf: cpfSchema });

export const creditCheckAcceptedSchema = z.object({ id: z.string(), status: z.literal('pending') });

export const creditCheckResultEventSchema = z.object({
  eventName: z.literal('credit_check_completed'),
  id: z.string(),
  country: z.enum(['ar', 'br']),
  request: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  /**
   * When the result was signed (ISO 8601): the embedded service's addition, under the body's
   * signature, so that a receiver can refuse an old body replayed. The hosted shape has none.
   */
  timestamp: z.string().optional(),
});
export type CreditCheckResultEvent = z.infer<typeof creditCheckResultEventSchema>;
