import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { flowListSchema } from '@/shared/contract/service-api';
import { flowSchema } from '@/shared/flow';
import type { ServiceContext } from '../../verification/context';
import { notFound } from '../../verification/service-error';

const flowParams = z.object({ flowId: z.string() });

/** The demo flows, the service's "dashboard" (wire contract §2, ext: the hosted API has no such route). */
export async function flowRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  app.get('/v2/flows', { schema: { response: { 200: flowListSchema } } }, async () =>
    [...ctx.flows.values()].map((f) => ({ id: f.id, name: f.name })),
  );
  app.get(
    '/v2/flows/:flowId',
    { schema: { params: flowParams, response: { 200: flowSchema } } },
    async (request) => {
      const flow = ctx.flows.get((request.params as z.infer<typeof flowParams>).flowId);
      if (!flow) throw notFound('unknown flow');
      return flow;
    },
  );
}
