import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  staffDecisionSchema,
  staffVerificationDetailSchema,
  verificationSummarySchema,
} from '@/shared/contract/bff-api';
import { identityStatus, type VerificationData } from '@/shared/contract/verification';
import { bffPaths } from '@/shared/contract/bff-paths';
import type { BffDeps } from '../deps';
import { BffHttpError, notFound } from '../errors';
import { inputStatesOf } from '../domain/input-states';
import { rewriteMediaUrls } from '../domain/media-urls';
import { RetentionSweep } from '../domain/retention';
import { envelopeOf } from '../upstream/upstream-client';
import { serviceId } from './verifications';

const listQuery = z.object({
  status: z.union([identityStatus, z.literal('')]).optional(),
  flowId: z.string().max(100).optional(),
});
const idParams = z.object({ id: serviceId });

/** The staff console's view of verifications: the list, one with its data and events, decisions, erasure. */
export function staffVerificationRoutes(app: FastifyInstance, { store, sync, upstream, config }: BffDeps) {
  const forBrowser = <T>(value: T) => rewriteMediaUrls(value, upstream.origin).data as T;

  const detail = async (id: string, requestId: string) => {
    let data: VerificationData | null = null;
    try {
      ({ data } = await sync.refresh(id, requestId));
    } catch (error) {
      // The service being away still leaves what the BFF stored.
      const stored = await store.getVerification(id);
      if (!stored || !(error instanceof BffHttpError)) throw error;
      app.log.warn({ code: error.body.code }, 'serving stored verification data');
      data = stored.data as VerificationData | null;
    }
    const stored = await store.getVerification(id);
    if (!stored) throw notFound('No such verification.');
    const [events, results] = await Promise.all([store.eventsOf(id), store.inputResultsOf(id)]);
    const rewritten = data === null ? null : rewriteMediaUrls(data, upstream.origin);
    return {
      data: rewritten ? (rewritten.data as VerificationData) : null,
      media: [...new Set(rewritten?.media.map((m) => bffPaths.staffMedia(m.id)) ?? [])],
      events: events.map((event) => ({ ...event, body: forBrowser(event.body) })),
      summary: stored.summary,
      deletionDate: RetentionSweep.deletionDate(config.retentionDays, stored.summary.updatedAt),
      inputs: inputStatesOf(data, events, results),
    };
  };

  app.get(
    '/api/staff/verifications',
    { schema: { querystring: listQuery, response: { 200: z.array(verificationSummarySchema) } } },
    async (request) => {
      const query = request.query as z.infer<typeof listQuery>;
      return store.listVerifications({
        status: query.status || undefined,
        flowId: query.flowId || undefined,
      });
    },
  );

  app.get(
    '/api/staff/verifications/:id',
    { schema: { params: idParams, response: { 200: staffVerificationDetailSchema } } },
    async (request) => detail((request.params as z.infer<typeof idParams>).id, request.id),
  );

  // A reviewer's decision, through the service's documented status route.
  app.put(
    '/api/staff/verifications/:id/status',
    {
      schema: {
        params: idParams,
        body: staffDecisionSchema,
        response: { 200: staffVerificationDetailSchema },
      },
    },
    async (request) => {
      const { id } = request.params as z.infer<typeof idParams>;
      if (!(await store.getVerification(id))) throw notFound('No such verification.');
      await upstream.json('PUT', `/v2/verifications/${encodeURIComponent(id)}/status`, {
        body: request.body,
        requestId: request.id,
      });
      return detail(id, request.id);
    },
  );

  // Erasure: at the service (data and media) and here (stored data, events, media links).
  app.delete(
    '/api/staff/verifications/:id',
    { schema: { params: idParams, response: { 204: { contentType: 'none' } } } },
    async (request, reply) => {
      const { id } = request.params as z.infer<typeof idParams>;
      const stored = await store.getVerification(id);
      if (!stored) throw notFound('No such verification.');
      const res = await upstream.call({
        method: 'DELETE',
        path: `/v2/verifications/${encodeURIComponent(id)}`,
        requestId: request.id,
      });
      // Already gone at the service (404) is fine: the BFF's copy goes all the same.
      if (res.statusCode >= 300 && res.statusCode !== 404) throw await envelopeOf(res);
      await res.body.dump();
      await sync.erase(id);
      return reply.code(204).send();
    },
  );
}
