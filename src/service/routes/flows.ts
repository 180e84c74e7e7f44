import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';

/** The demo flows, the service's "dashboard" (wire contract §2, ext). */
export async function flowRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  app.get('/v2/flows', async () => [...ctx.flows.values()].map((f) => ({ id: f.id, name: f.name })));
  app.get<{ Params: { flowId: string } }>('/v2/flows/:flowId', async (request) => {
    const flow = ctx.flows.get(request.params.flowId);
    if (!flow) throw notFound('unknown flow');
    return flow;
  });
}
