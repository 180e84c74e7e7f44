import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import type { Lifecycle } from '../lifecycle';
import { sendInput } from '../send-input';
import { parseCreation } from './verifications';

export async function identityRoutes(
  app: FastifyInstance,
  opts: { ctx: ServiceContext; lifecycle: Lifecycle },
) {
  const { ctx, lifecycle } = opts;

  // Any other content type reaches the handler unread, to be refused as "not multipart" (wire contract §4).
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // The older creation form (wire contract §3), kept for existing client libraries.
  app.post('/v2/identities', async (request) => {
    const { plan, metadata } = parseCreation(ctx, request.body);
    const v = lifecycle.create(plan.flow.id, metadata);
    return {
      _id: v.identity,
      status: 'pending',
      flowId: plan.flow.id,
      metadata: metadata ?? {},
      dateCreated: new Date(v.created_at).toISOString(),
      dateUpdated: new Date(v.updated_at).toISOString(),
      verificationId: v.id,
    };
  });

  app.post<{ Params: { identity: string } }>(
    '/v2/identities/:identity/send-input',
    async (request, reply) => {
      const results = await sendInput(ctx, lifecycle, request, request.params.identity);
      return reply.status(201).send(results);
    },
  );
}
