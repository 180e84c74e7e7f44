import type { FastifyInstance } from 'fastify';
import {
  failedDeliveryListSchema,
  redeliverAnswerSchema,
  redeliverRequestSchema,
} from '@/shared/contract/webhook-deliveries';
import type { ServiceContext } from '../../verification/context';

/**
 * (ext) Webhook catch-up: deliveries the outbox gave up on stay visible here and are sent again
 * on demand, so that a receiver that was away longer than the retry schedule loses nothing.
 */
export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  app.get('/v2/webhooks/failed', { schema: { response: { 200: failedDeliveryListSchema } } }, async () =>
    ctx.outbox.failed(),
  );
  app.post(
    '/v2/webhooks/failed/redeliver',
    { schema: { body: redeliverRequestSchema, response: { 200: redeliverAnswerSchema } } },
    async (request) => ({
      redelivered: await ctx.outbox.redeliver((request.body as { ids?: number[] } | undefined)?.ids),
    }),
  );
}
