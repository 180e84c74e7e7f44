import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BffDeps } from '../deps';
import { bffErrorSchema } from '@/shared/contract/bff-api';
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
    {
      ...openUnlimitedRoute('health'),
      // 503 is also the open routes' "busy" envelope, when every health slot is taken.
      schema: { response: { 200: healthSchema, 503: z.union([healthSchema, bffErrorSchema]) } },
    },
    async (_request, reply) => {
      const status = await upstream.credentialsWork();
      return reply.code(status === 'ok' ? 200 : 503).send({ ok: status === 'ok', upstream: status });
    },
  );
}
