import { z } from 'zod';
import { languages } from '../languages';
import { livenessChallengeSchema } from './liveness-challenge';
import { flowInputIds } from './service-api';
import { MAX_REVIEW_NOTE, REASON_NEEDING_NOTE } from '../review-reasons';
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
  /** The service's active liveness challenge for the video, when it set one (the hosted API sets none). */
  livenessChallenge: livenessChallengeSchema.optional(),
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

/**
 * POST /api/verifications/:id/handoff body: what the phone carries on with, so that it asks
 * nothing the computer asked already: when the person agreed to the notice, and the document
 * (type, country, region) chosen per document step (its group), checked against the flow.
 */
export const handoffRequestSchema = z.object({
  consentedAt: z.iso.datetime(),
  documents: z
    .array(
      z.object({
        group: z.number().int().min(0).max(20),
        type: z.string().min(1).max(40),
        country: z.string().regex(/^[A-Z]{2}$/),
        region: z.string().min(1).max(40).optional(),
      }),
    )
    .max(20)
    .default([]),
  /** The language chosen on the first device: the phone opens in it. */
  language: z.enum(languages).optional(),
});
export type HandoffRequest = z.input<typeof handoffRequestSchema>;
export type HandoffCarry = z.infer<typeof handoffRequestSchema>;

/** POST /api/verifications/:id/handoff: a link to continue this verification on a phone. */
export const handoffSchema = z.object({
  url: z.string(),
  expiresAt: z.string(),
});
export type Handoff = z.infer<typeof handoffSchema>;

/** GET /api/verifications/:id/handoff: whether a phone took the verification over. */
export const handoffStateSchema = z.object({
  claimed: z.boolean(),
  /** The phone sent every input: the desktop shows the end. */
  finished: z.boolean(),
  status: identityStatus,
});
export type HandoffState = z.infer<typeof handoffStateSchema>;

/** POST /api/handoffs/:token/claim: the verification the phone continues. */
export const claimedHandoffSchema = z.object({
  flowId: z.string(),
  verification: createdVerificationSchema,
  /** What the computer handed over with the verification (null from a link made before it did). */
  carry: handoffRequestSchema.nullable(),
});
export type ClaimedHandoff = z.infer<typeof claimedHandoffSchema>;

export const inputStates = [
  'notSent',
  'refused',
  'waitingForBack',
  'received',
  'processing',
  'checked',
  'failed',
] as const;

/**
 * Where one input of a verification stands and why, for staff: not sent yet, refused (waiting for
 * a retake, with the service's code), waiting for the back side, received, being processed,
 * checked, or failed (with the code of its failed check). The BFF works it out from the service's
 * data and the events it received.
 */
export const inputStateSchema = z.object({
  input: z.enum(flowInputIds),
  /** A document's group (the flow's document order). */
  group: z.number().int().min(0).optional(),
  /** The document's type, when the service has it. */
  documentType: z.string().optional(),
  state: z.enum(inputStates),
  code: z.string().optional(),
  /** The ids of the input's checks this service does not perform (never a failure). */
  notPerformed: z.array(z.string()).optional(),
});
export type InputState = z.infer<typeof inputStateSchema>;

/** A reviewer's decision as the BFF recorded it: who (a staff session), when, why. */
export const reviewRecordSchema = z.object({
  id: z.string(),
  decision: reviewDecision,
  /** A code of the flow's reasons for that decision, or of the default set. */
  reason: z.string(),
  note: z.string().nullable(),
  /** The staff session that decided, as a short fingerprint (never the session id itself). */
  reviewer: z.string(),
  /** The session asking is the one that decided. */
  byYou: z.boolean(),
  decidedAt: z.string(),
});
export type ReviewRecord = z.infer<typeof reviewRecordSchema>;

/** GET /api/staff/verifications/:id: the service's data (media links made the BFF's), its events. */
export const staffVerificationDetailSchema = z.object({
  data: verificationDataSchema.nullable(),
  events: z.array(storedEventSchema),
  summary: verificationSummarySchema,
  /**
   * The media paths (`/api/staff/media/<id>`) the BFF made of the service's media links in `data`:
   * the console shows these as media and nothing else (a metadata value may look the same).
   */
  media: z.array(z.string()),
  /** When the BFF's retention sweep deletes its copy (RETENTION_DAYS after the last change); null: kept. */
  deletionDate: z.string().nullable(),
  inputs: z.array(inputStateSchema).default([]),
  /** The reviewers' decisions, newest first. */
  reviews: z.array(reviewRecordSchema).default([]),
});
export type StaffVerificationDetail = z.infer<typeof staffVerificationDetailSchema>;

/**
 * PUT /api/staff/verifications/:id/status body: a reviewer's decision, its reason (a code of the
 * flow's list for that decision, or of the default one: the BFF checks it against the flow) and an
 * optional note, required with the reason "other".
 */
export const staffDecisionSchema = z
  .object({
    status: reviewDecision,
    reason: z.string().regex(/^[A-Za-z0-9-]{1,40}$/),
    note: z
      .string()
      .trim()
      .max(MAX_REVIEW_NOTE)
      .transform((note) => note || undefined)
      .optional(),
  })
  .refine((body) => body.reason !== REASON_NEEDING_NOTE || body.note !== undefined, {
    path: ['note'],
    message: 'a note is required with the reason "other"',
  });
export type StaffDecision = z.input<typeof staffDecisionSchema>;
