import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { identityStatus } from '@/shared/contract/verification';
import type { BffDeps } from '../deps';
import { BffHttpError, notFound } from '../errors';
import { rewriteMediaUrls } from '../lib/media-urls';
import { serviceId } from './verifications';

const listQuery = z.object({
  status: z.union([identityStatus, z.literal('')]).optional(),
  flowId: z.string().max(100).optional(),
});

/** The staff console's view of verifications: the list, one with its data and events. */
export function staffVerificationRoutes(app: FastifyInstance, { store, sync, upstream }: BffDeps) {
  const forBrowser = (value: unknown) => rewriteMediaUrls(value, upstream.origin).data;
  app.get('/api/staff/verifications', async (request) => {
    const query = listQuery.parse(request.query);
    return store.listVerifications({ status: query.status || undefined, flowId: query.flowId || undefined });
  });

  app.get('/api/staff/verifications/:id', async (request) => {
    const { id } = z.object({ id: serviceId }).parse(request.params);
    let data: unknown = null;
    try {
      ({ data } = await sync.refresh(id, request.id));
    } catch (error) {
      // The service being away (or not knowing it) still leaves what the BFF stored.
      const stored = await store.getVerification(id);
      if (!stored || !(error instanceof BffHttpError)) throw error;
      request.log.warn({ code: error.body.code }, 'serving stored verification data');
      data = stored.data;
    }
    const stored = await store.getVerification(id);
    if (!stored) throw notFound('No such verification.');
    const events = await store.eventsOf(id);
    return {
      data: data === null ? null : forBrowser(data),
      events: events.map((event) => ({ ...event, body: forBrowser(event.body) })),
      summary: stored.summary,
    };
  });
}
