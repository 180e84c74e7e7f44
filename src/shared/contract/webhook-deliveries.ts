import { z } from 'zod';

/** A webhook delivery the service gave up on (GET /v2/webhooks/failed, ext). */
export const failedDeliverySchema = z.object({
  id: z.number().int(),
  /** The receiver, without user name, password or query. */
  url: z.string(),
  eventName: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  failedAt: z.string(),
});
export type FailedDelivery = z.infer<typeof failedDeliverySchema>;
export const failedDeliveryListSchema = z.array(failedDeliverySchema);

/** POST /v2/webhooks/failed/redeliver: the ids to send again, or every failed one. */
export const redeliverRequestSchema = z.object({ ids: z.array(z.number().int()).max(1000).optional() });
export const redeliverAnswerSchema = z.object({ redelivered: z.number().int() });
