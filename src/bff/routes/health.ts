import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BffDeps } from '../deps';
import type { BffStore } from '../store/store';
import { bffErrorSchema } from '@/shared/contract/bff-api';
import { openUnlimitedRoute } from '@/server-shared/route-rules';

const healthSchema = z.object({
  ok: z.boolean(),
  upstream: z.enum(['ok', 'unavailable', 'error']),
  store: z.enum(['ok', 'unavailable']),
});

/** A database that hangs rather than refuses must not hang the probe. */
const STORE_PING_MS = 3_000;

async function storeWorks(store: BffStore): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'unavailable'>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), STORE_PING_MS);
  });
  try {
    return await Promise.race([store.ping().then(() => 'ok' as const), late]);
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Readiness: 200 `{ok: true, upstream: 'ok', store: 'ok'}` when the service issues a token for
 * our credentials (`/oauth`, a route every service has) and the store answers a query (PostgreSQL
 * may refuse connections while the BFF runs); otherwise 503 with what failed, so that whoever
 * waits for the product (Playwright, a load balancer) waits for all of it.
 */
export function healthRoutes(app: FastifyInstance, { upstream, store }: BffDeps) {
  app.get(
    '/api/health',
    {
      ...openUnlimitedRoute('health'),
      // 503 is also the open routes' "busy" envelope, when every health slot is taken.
      schema: { response: { 200: healthSchema, 503: z.union([healthSchema, bffErrorSchema]) } },
    },
    async (_request, reply) => {
      const [status, stored] = await Promise.all([upstream.credentialsWork(), storeWorks(store)]);
      const ok = status === 'ok' && stored === 'ok';
      return reply.code(ok ? 200 : 503).send({ ok, upstream: status, store: stored });
    },
  );
}
