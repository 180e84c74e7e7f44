import type { FastifyInstance } from 'fastify';
import { serviceHealthSchema } from '@/shared/contract/service-api';
import type { ServiceContext } from '../../verification/context';
import { openRoute } from '@/server-shared/route-rules';

/** GET /health (no token): 503 while the disk refuses writes, so a balancer or an operator sees it. */
export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  app.get(
    '/health',
    { ...openRoute, schema: { response: { 200: serviceHealthSchema, 503: serviceHealthSchema } } },
    async (_request, reply) => {
      const ok = await ctx.media.probe();
      return reply.status(ok ? 200 : 503).send({ ok, storage: ok ? 'ok' : 'failing' });
    },
  );
}
