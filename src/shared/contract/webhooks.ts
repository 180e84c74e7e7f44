import { z } from 'zod';
import { stepSchema } from './verification';

export const webhookEventNames = [
  'verification_started',
  'verification_inputs_completed',
  'verification_postponed',
  'step_completed',
  'verification_completed',
  'verification_updated',
  'verification_expired',
  'verification_signed',
  // The embedded service's extension: the verification was erased (DELETE or retention); a
  // receiver erases its copy.
  'verification_deleted',
] as const;
export type WebhookEventName = (typeof webhookEventNames)[number];

/** A verification webhook body, signed with `x-signature`. Loose: the hosted service may add keys. */
export const verificationEventSchema = z.looseObject({
  eventName: z.enum(webhookEventNames),
  resource: z.url(),
  flowId: z.string(),
  timestamp: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  step: stepSchema.optional(),
});
export type VerificationEvent = z.infer<typeof verificationEventSchema>;
