import { z } from 'zod';

export const identityStatuses = ['pending', 'running', 'verified', 'reviewNeeded', 'rejected'] as const;
export const identityStatus = z.enum(identityStatuses);
export type IdentityStatus = z.infer<typeof identityStatus>;

const stepError = z.object({ type: z.string(), code: z.string(), message: z.string() }).nullable();

export const stepSchema = z.object({
  id: z.string(),
  status: z.union([z.literal(0), z.literal(100), z.literal(200)]),
  data: z.record(z.string(), z.unknown()).optional(),
  error: stepError.optional(),
});
export type Step = z.infer<typeof stepSchema>;

export const documentFieldSchema = z.object({
  value: z.union([z.string(), z.number(), z.null()]),
  label: z.string().optional(),
  format: z.string().optional(),
});

export const verificationDocumentSchema = z.object({
  type: z.string(),
  country: z.string(),
  region: z.string().nullish(),
  photos: z.array(z.string()),
  steps: z.array(stepSchema),
  fields: z.record(z.string(), documentFieldSchema).optional(),
});

export const bankStatementSchema = z.object({
  accounts: z.array(z.record(z.string(), z.unknown())),
  transactions: z.array(z.record(z.string(), z.unknown())),
  current_balance: z.number().nullish(),
  available_balance: z.number().nullish(),
  identity: z.record(z.string(), z.unknown()).nullish(),
});
export type BankStatement = z.infer<typeof bankStatementSchema>;

/** GET /v2/verifications/{id} (wire contract §6). Loose: the hosted service may add keys. */
export const verificationDataSchema = z.looseObject({
  id: z.string(),
  identity: z.looseObject({ status: identityStatus }),
  flow: z.object({ id: z.string(), name: z.string() }),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  expired: z.boolean().optional(),
  steps: z.array(stepSchema),
  documents: z.array(verificationDocumentSchema),
  computed: z
    .object({
      age: z.object({ data: z.number().nullable() }).optional(),
      isDocumentExpired: z.object({ data: z.record(z.string(), z.boolean().nullable()) }).optional(),
    })
    .optional(),
  financialInformation: z.object({ bankStatement: bankStatementSchema.optional() }).nullish(),
});
export type VerificationData = z.infer<typeof verificationDataSchema>;

export const webhookEventNames = [
  'verification_started',
  'verification_inputs_completed',
  'step_completed',
  'verification_completed',
  'verification_updated',
  'verification_expired',
] as const;

/** Verification webhook body (wire contract §7). */
export const verificationEventSchema = z.looseObject({
  eventName: z.enum(webhookEventNames),
  resource: z.string().url(),
  flowId: z.string(),
  timestamp: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  step: z.unknown().optional(),
});
export type VerificationEvent = z.infer<typeof verificationEventSchema>;

/** Verification creation (wire contract §3). metadata is flat and at most 4 KB. */
export const createVerificationSchema = z.object({
  flowId: z.string().min(1).max(100),
  metadata: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .refine((m) => JSON.stringify(m).length <= 4096, 'metadata of at most 4 KB')
    .optional(),
});
export type CreateVerification = z.infer<typeof createVerificationSchema>;
