import type { FastifyInstance } from 'fastify';
import type { BffDeps } from '../deps';
import { BffHttpError } from '../errors';

/**
 * Readiness: 200 `{ok: true, upstream: 'ok'}` when the service answers with our credentials,
 * otherwise 503 `{ok: false, upstream: 'unavailable' | 'error'}`, so that whoever waits for the
 * product (Playwright's webServer, a load balancer) waits for both processes.
 */
export function healthRoutes(app: FastifyInstance, { upstream }: BffDeps) {
  app.get('/api/health', async (request, reply) => {
    let status: 'ok' | 'unavailable' | 'error' = 'ok';
    try {
      const res = await upstream.call({
        method: 'GET',
        path: '/v2/flows',
        timeoutMs: 3_000,
        requestId: request.id,
      });
      await res.body.dump();
      if (res.statusCode >= 400) status = 'error';
    } catch (error) {
      status =
        error instanceof BffHttpError && error.body.code === 'upstream.unavailable' ? 'unavailable' : 'error';
    }
    return reply.code(status === 'ok' ? 200 : 503).send({ ok: status === 'ok', upstream: status });
  });
}
