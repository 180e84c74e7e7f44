import type { FastifyInstance } from 'fastify';
import type { BffDeps } from '../deps';
import { BffHttpError } from '../errors';

/** Liveness of the BFF (always 200 while it runs) and whether the service answers. */
export function healthRoutes(app: FastifyInstance, { upstream }: BffDeps) {
  app.get('/api/health', async (request) => {
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
    return { ok: true, upstream: status };
  });
}
