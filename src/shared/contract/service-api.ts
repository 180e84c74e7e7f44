import { z } from 'zod';
import { livenessChallengeSchema } from './liveness-challenge';
import {
  deviceFingerprintSchema,
  identityStatus,
  metadataObjectSchema,
  reviewDecision,
  stepSchema,
} from './verification';

/** POST /oauth answer. Clients read `payload.user._id`. */
export const tokenSchema = z.object({
  access_token: z.string(),
  expiresIn: z.number().int().positive(),
  payload: z.object({
    user: z.object({ _id: z.string(), firstName: z.string(), lastName: z.string() }),
  }),
});
export type Token = z.infer<typeof tokenSchema>;

/**
 * POST /oauth/token answer, the older token route (wire contract §1): the same body, plus the
 * OAuth 2.0 keys its clients read (`token_type`, `expires_in`, as mati-verification-api-js's
 * v1 `AuthResponse` declares them).
 */
export const olderTokenSchema = tokenSchema.extend({
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});

/** Every error body of the service; `code` is the status (or a string code such as `input.locked`). */
export const serviceErrorSchema = z.looseObject({
  code: z.union([z.number(), z.string()]),
  type: z.enum(['IntegrationError', 'ValidationError', 'SystemError']).optional(),
  name: z.string(),
  message: z.string(),
  status: z.number().int(),
  statusCode: z.number().int(),
});
export type ServiceErrorBody = z.infer<typeof serviceErrorSchema>;

/** GET /health (ext): 503 with `storage: "failing"` while files cannot be written (disk full). */
export const serviceHealthSchema = z.object({ ok: z.boolean(), storage: z.enum(['ok', 'failing']) });
export type ServiceHealth = z.infer<typeof serviceHealthSchema>;

/** Metadata as an object, or as a JSON string of one (older clients send it serialized). */
export const metadataSchema = z.union([
  metadataObjectSchema,
  z.string().transform((text, ctx) => {
    try {
      const parsed: unknown = JSON.parse(text);
      const checked = metadataObjectSchema.safeParse(parsed);
      if (checked.success) return checked.data;
    } catch {
      // Reported below.
    }
    ctx.addIssue({ code: 'custom', message: 'metadata must be an object, or a JSON string of one' });
    return z.NEVER;
  }),
]);

const serviceId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);

/**
 * POST /v2/verifications and the older POST /v2/identities. Without `flowId` (or with `null`, which
 * a client sends for "no flow") the account's default flow is used; with `identityId` an existing
 * identity is verified again.
 */
export const createVerificationSchema = z.object({
  flowId: z.string().min(1).max(100).nullish(),
  metadata: metadataSchema.optional(),
  identityId: serviceId.optional(),
});
export type CreateVerification = z.input<typeof createVerificationSchema>;

export const flowInputIds = [
  'connection-data',
  'document-photo',
  'selfie-photo',
  'selfie-video',
  'custom-document-photo',
  'custom-fields',
  'financial-information-bank-statement-parsing-request',
] as const;

export const flowInputSchema = z.object({
  id: z.enum(flowInputIds),
  status: z.union([z.literal(0), z.literal(100), z.literal(200)]),
  group: z.number().int().min(0).optional(),
  optional: z.boolean().optional(),
  /** A refused input's error code, while it waits for a retake (ext: the embedded service's). */
  errorCode: z.string().optional(),
});

export type FlowInput = z.infer<typeof flowInputSchema>;

/** POST /v2/verifications answer. */
export const creationAnswerSchema = z.looseObject({
  id: z.string(),
  identity: z.string(),
  flow: z.object({ id: z.string(), name: z.string() }),
  inputs: z.array(flowInputSchema),
  steps: z.array(stepSchema),
  documents: z.array(z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  expired: z.boolean(),
  deviceFingerprint: deviceFingerprintSchema,
  hasProblem: z.boolean(),
  /** (ext) The active liveness challenge of a video flow; the hosted API gives none. */
  livenessChallenge: livenessChallengeSchema.optional(),
});
export type CreationAnswer = z.infer<typeof creationAnswerSchema>;

/**
 * POST /v2/identities answer (the older creation form), and GET /v2/identities/{id}; `_id` is the
 * identity for send-input.
 */
export const createdIdentitySchema = z.looseObject({
  _id: z.string(),
  status: identityStatus,
  flowId: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  dateCreated: z.string(),
  dateUpdated: z.string(),
  verificationId: z.string().optional(),
});

/** PUT /v2/verifications/{id}/status body. */
export const statusDecisionSchema = z.object({ status: reviewDecision });
export type StatusDecision = z.infer<typeof statusDecisionSchema>;

/** GET /v2/flows answer (ext). */
export const flowListSchema = z.array(z.object({ id: z.string(), name: z.string() }));
