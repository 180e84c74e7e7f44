import { z } from 'zod';
import { identityStatus } from './verification';

/**
 * The BFF's browser-facing API (src/bff serves it, src/app and src/features call it).
 * Paths are relative to the SPA's origin.
 */
export const bffPaths = {
  flows: '/api/flows',
  flow: (flowId: string) => `/api/flows/${encodeURIComponent(flowId)}`,
  verifications: '/api/verifications',
  sendInput: (identity: string) => `/api/identities/${encodeURIComponent(identity)}/send-input`,
  skipUploadWait: (verificationId: string) => `/api/verifications/${encodeURIComponent(verificationId)}/skip-upload-wait`,
  status: (verificationId: string) => `/api/verifications/${encodeURIComponent(verificationId)}/status`,
  staffLogin: '/api/staff/login',
  staffLogout: '/api/staff/logout',
  staffMe: '/api/staff/me',
  staffVerifications: '/api/staff/verifications',
  staffVerification: (id: string) => `/api/staff/verifications/${encodeURIComponent(id)}`,
  /** Media of a verification, proxied with the bearer token; mediaId is the last segment of a media URL. */
  staffMedia: (mediaId: string) => `/api/staff/media/${encodeURIComponent(mediaId)}`,
  staffCreditChecks: '/api/staff/credit-checks',
  staffCreditCheck: (country: 'ar' | 'br') => `/api/staff/credit-checks/${country}`,
  staffEvents: '/api/staff/events',
  health: '/api/health',
} as const;

/** Every non-2xx answer of the BFF. */
export const bffErrorSchema = z.object({
  code: z.string(),
  type: z.enum(['IntegrationError', 'ValidationError', 'SystemError', 'AuthError']),
  message: z.string(),
});
export type BffError = z.infer<typeof bffErrorSchema>;

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
]);
export type StaffStreamEvent = z.infer<typeof staffStreamEventSchema>;
