import { z } from 'zod';
import { identityStatus, metadataObjectSchema, reviewDecision, verificationDataSchema } from './verification';

/** Every non-2xx answer of the BFF. */
export const bffErrorSchema = z.object({
  code: z.string(),
  type: z.enum(['IntegrationError', 'ValidationError', 'SystemError', 'AuthError']),
  message: z.string(),
});
export type BffError = z.infer<typeof bffErrorSchema>;

/** POST /api/verifications body. */
export const createVerificationRequestSchema = z.object({
  flowId: z.string().min(1).max(100),
  metadata: metadataObjectSchema.optional(),
});
export type CreateVerificationRequest = z.infer<typeof createVerificationRequestSchema>;

export const createdVerificationSchema = z.object({
  verificationId: z.string(),
  identity: z.string(),
  flow: z.object({ id: z.string(), name: z.string() }),
});
export type CreatedVerification = z.infer<typeof createdVerificationSchema>;

export const verificationStatusSchema = z.object({
  verificationId: z.string(),
  status: identityStatus,
  /** Names of the steps and checks finished so far, for a progress line. */
  completedSteps: z.array(z.string()).default([]),
});
export type VerificationStatus = z.infer<typeof verificationStatusSchema>;

export const staffLoginSchema = z.object({ password: z.string().min(1).max(200) });
/** POST /api/staff/login and GET /api/staff/me answers. */
export const staffSessionSchema = z.object({ authenticated: z.literal(true), expiresAt: z.string() });

export const verificationSummarySchema = z.object({
  id: z.string(),
  identity: z.string().nullable(),
  flowId: z.string(),
  flowName: z.string().nullable(),
  status: identityStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastEvent: z.string().nullable(),
});
export type VerificationSummary = z.infer<typeof verificationSummarySchema>;

export const storedEventSchema = z.object({
  id: z.string(),
  kind: z.enum(['verification', 'credit-check']),
  eventName: z.string(),
  receivedAt: z.string(),
  signatureValid: z.boolean(),
  body: z.unknown(),
});
export type StoredEvent = z.infer<typeof storedEventSchema>;

export const creditCheckRecordSchema = z.object({
  id: z.string(),
  country: z.enum(['ar', 'br']),
  request: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'completed', 'failed']),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type CreditCheckRecord = z.infer<typeof creditCheckRecordSchema>;

/** Server-sent events of GET /api/staff/events: `event: verification` or `event: credit-check`. */
export const staffStreamEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('verification'), verification: verificationSummarySchema }),
  z.object({ kind: z.literal('credit-check'), creditCheck: creditCheckRecordSchema }),
  z.object({ kind: z.literal('verification-deleted'), id: z.string() }),
]);
export type StaffStreamEvent = z.infer<typeof staffStreamEventSchema>;

/** GET /api/staff/verifications/:id: the service's data (media links made the BFF's), its events. */
export const staffVerificationDetailSchema = z.object({
  data: verificationDataSchema.nullable(),
  events: z.array(storedEventSchema),
  summary: verificationSummarySchema,
});
export type StaffVerificationDetail = z.infer<typeof staffVerificationDetailSchema>;

/** PUT /api/staff/verifications/:id/status body: a reviewer's decision. */
export const staffDecisionSchema = z.object({ status: reviewDecision });
