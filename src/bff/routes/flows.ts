import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BffDeps } from '../deps';

const flowParams = z.object({ flowId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/** The flows (the service's dashboard configuration) the SPA walks the person through. */
export function flowRoutes(app: FastifyInstance, { upstream }: BffDeps) {
  app.get(
    '/api/flows',
    async (request) => (await upstream.json('GET', '/v2/flows', { requestId: request.id })).body,
  );

  app.get('/api/flows/:flowId', async (request) => {
    const { flowId } = flowParams.parse(request.params);
    return (await upstream.json('GET', `/v2/flows/${encodeURIComponent(flowId)}`, { requestId: request.id }))
      .body;
  });
}
