import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BffDeps } from '../deps';
import { openUnlimitedRoute } from '@/server-shared/route-rules';

const healthSchema = z.object({ ok: z.boolean(), upstream: z.enum(['ok', 'unavailable', 'error']) });

/**
 * Readiness: 200 `{ok: true, upstream: 'ok'}` when the service issues a token for our credentials
 * (`/oauth`, a route every service has), otherwise 503 `{ok: false, upstream: 'unavailable' |
 * 'error'}`, so that whoever waits for the product (Playwright, a load balancer) waits for both.
 */
export function healthRoutes(app: FastifyInstance, { upstream }: BffDeps) {
  app.get(
    '/api/health',
    { ...openUnlimitedRoute, schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      const status = await upstream.credentialsWork();
      return reply.code(status === 'ok' ? 200 : 503).send({ ok: status === 'ok', upstream: status });
    },
  );
}
