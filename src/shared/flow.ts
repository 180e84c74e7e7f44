import { z } from 'zod';
import { meritOrder } from './merit-order';

/** ISO 3166-1 alpha-2, upper case. */
export const countryCode = z.string().regex(/^[A-Z]{2}$/, 'a 2-letter ISO country code');

export const documentTypes = ['national-id', 'passport', 'driving-license', 'proof-of-residency'] as const;
export const documentType = z.enum(documentTypes);
export type DocumentType = z.infer<typeof documentType>;

export const documentCheck = z.enum(['mrz', 'pdf417']);

export const documentStepSchema = z.object({
  types: z.array(documentType).min(1),
  countries: z.array(countryCode).min(1),
  /** Per country, the region codes the user must choose from; absent or empty = no region. */
  regions: z.record(z.string(), z.array(z.string().min(1))).default({}),
  /** Country-specific checks (e.g. mexican-curp-validation) run in addition to these. */
  requires: z.array(documentCheck).default([]),
});
export type DocumentStep = z.infer<typeof documentStepSchema>;

export const customDocumentSchema = z.object({
  type: z.string().regex(/^custom-[a-z0-9-]+$/),
  name: z.string().min(1).optional(),
  multiPage: z.boolean().default(false),
  /** Whether the document has a back side (ignored for a multi-page PDF). */
  sides: z.enum(['one', 'two']).default('one'),
});
export type CustomDocument = z.infer<typeof customDocumentSchema>;

export const customFieldType = z.enum(['text', 'date', 'select', 'checkbox']);
export const fieldMappingSchema = z.object({ country: countryCode, key: z.string().min(1) });

export const customFieldDefinitionSchema = z.object({
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]*$/),
  label: z.string().min(1).optional(),
  type: customFieldType,
  required: z.boolean().default(false),
  options: z.array(z.object({ value: z.string().min(1), label: z.string().min(1) })).optional(),
  /** A regular expression (source) the text value must match. */
  pattern: z.string().optional(),
  /** What the value must look like, said to the person ("18 letters and digits"). */
  hint: z.string().min(1).optional(),
  /** The value is upper case (typed letters are upper-cased as they come). */
  uppercase: z.boolean().optional(),
  /** The longest value the input takes (typing stops there). */
  maxLength: z.number().int().positive().optional(),
  mapping: fieldMappingSchema.optional(),
});
export type CustomFieldDefinition = z.infer<typeof customFieldDefinitionSchema>;

export const bankInstitutionSchema = z.object({ institutionId: z.string().min(1), name: z.string().min(1) });

export const meritSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('document-verification'), documents: z.array(documentStepSchema).min(1) }),
  z.object({ type: z.literal('biometric-verification'), input: z.enum(['selfie-photo', 'selfie-video']) }),
  z.object({ type: z.literal('custom-document'), documents: z.array(customDocumentSchema).min(1) }),
  z.object({
    type: z.literal('custom-fields'),
    country: countryCode,
    fields: z.array(customFieldDefinitionSchema).min(1),
  }),
  z.object({
    type: z.literal('bank-account-data'),
    countries: z.array(countryCode).min(1),
    institutions: z.array(bankInstitutionSchema).min(1),
  }),
]);
export type Merit = z.infer<typeof meritSchema>;
export type MeritType = Merit['type'];

export { meritOrder };

/** The languages a flow's own texts may come in (the wizard's languages). */
export const flowLanguages = ['en', 'es', 'pt'] as const;

/**
 * A flow's texts in one language; each one left out falls back to the flow's own (English)
 * text. Custom documents by type, custom fields by name, their options by value.
 */
export const flowTextsSchema = z.object({
  name: z.string().min(1).optional(),
  description: z.string().min(1).optional(),
  documents: z.record(z.string(), z.string().min(1)).optional(),
  fields: z
    .record(
      z.string(),
      z.object({
        label: z.string().min(1).optional(),
        /** What the value must look like, said to the person ("18 letters and digits"). */
        hint: z.string().min(1).optional(),
        options: z.record(z.string(), z.string().min(1)).optional(),
      }),
    )
    .optional(),
  /** The consent's purpose in this language (see flowConsentSchema). */
  purpose: z.string().min(1).optional(),
  /** The labels of the flow's own review reasons, by code. */
  reviewReasons: z.record(z.string(), z.string().min(1).max(120)).optional(),
});
export type FlowTexts = z.infer<typeof flowTextsSchema>;

/**
 * The notice shown before any capture. The flow says what is collected and why (`purpose`, the
 * object of "<brand> receives …": "your passport and a selfie to confirm who you are"); who
 * receives it (the brand, BRAND_NAME) and how long it is kept (RETENTION_DAYS) come from the
 * settings, so that the notice, the header and the checkbox name one controller and the notice
 * states the retention the service applies.
 */
export const flowConsentSchema = z.object({
  purpose: z
    .string()
    .min(1)
    .max(400)
    .refine((text) => !/[.!?]\s*$/.test(text), 'a phrase to end the sentence, without its full stop'),
  /** The full privacy notice. */
  noticeUrl: z.url({ protocol: /^https?$/ }).optional(),
});

/** A reason a reviewer may give for a decision: a stable code and its (English) label. */
export const reviewReasonSchema = z.object({
  code: z.string().regex(/^[A-Za-z0-9-]{1,40}$/),
  label: z.string().min(1).max(120),
});

/**
 * The reasons offered per decision on this flow's verifications, replacing the console's default
 * set for that decision (src/shared/review-reasons.ts); a decision left out keeps the default.
 */
export const flowReviewReasonsSchema = z
  .object({
    verified: z.array(reviewReasonSchema).min(1).max(20),
    rejected: z.array(reviewReasonSchema).min(1).max(20),
    reviewNeeded: z.array(reviewReasonSchema).min(1).max(20),
  })
  .partial()
  .superRefine((lists, ctx) => {
    for (const [decision, reasons] of Object.entries(lists)) {
      const codes = reasons.map((r) => r.code);
      if (new Set(codes).size !== codes.length)
        ctx.addIssue({ code: 'custom', path: [decision], message: 'reason codes repeated' });
    }
  });

export const flowSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    description: z.string().optional(),
    merits: z.array(meritSchema),
    consent: flowConsentSchema.optional(),
    /**
     * Whether the done screen tells the person the decision ("Your identity is verified"). By
     * default it says the verification was received: the business that asked for it decides and
     * tells the person, as most products do.
     */
    showDecision: z.boolean().default(false),
    reviewReasons: flowReviewReasonsSchema.optional(),
    translations: z.partialRecord(z.enum(flowLanguages), flowTextsSchema).optional(),
  })
  .superRefine((flow, ctx) => {
    const positions = flow.merits.map((m) => meritOrder.indexOf(m.type));
    for (let i = 1; i < positions.length; i++) {
      if (positions[i] <= positions[i - 1]) {
        ctx.addIssue({
          code: 'custom',
          path: ['merits', i],
          message: 'merits out of the fixed order, or repeated',
        });
      }
    }
  });
export type Flow = z.infer<typeof flowSchema>;

export const flowSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The flow's name in the other languages, from its translations. */
  names: z.partialRecord(z.enum(flowLanguages), z.string()).optional(),
});
export type FlowSummary = z.infer<typeof flowSummarySchema>;

/**
 * Flow definitions from their JSON files (the service's dashboard, the BFF's configuration):
 * each validated, ids unique; a bad file is an error that names it.
 */
export function parseFlowFiles(files: { name: string; text: string }[]): Map<string, Flow> {
  const flows = new Map<string, Flow>();
  for (const { name, text } of [...files].sort((a, b) => a.name.localeCompare(b.name))) {
    const parsed = flowSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`flow ${name}: ${parsed.error.message}`);
    if (flows.has(parsed.data.id)) throw new Error(`flow ${name}: duplicate id ${parsed.data.id}`);
    flows.set(parsed.data.id, parsed.data);
  }
  return flows;
}
