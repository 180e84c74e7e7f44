import { createHash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  staffDecisionSchema,
  staffVerificationDetailSchema,
  verificationSummarySchema,
} from '@/shared/contract/bff-api';
import { identityStatus, type VerificationData } from '@/shared/contract/verification';
import { bffPaths } from '@/shared/contract/bff-paths';
import { MAX_REVIEW_NOTE, reviewReasonCodes } from '@/shared/review-reasons';
import type { BffDeps } from '../deps';
import { BffHttpError, notFound, validationError } from '../errors';
import { signedCookie, STAFF_COOKIE } from '../http/sessions';
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

/**
 * Who decided: the staff session, as a fingerprint that names it in the history without giving
 * its id (the cookie's value) to everyone who reads the page.
 */
const reviewerOf = (request: FastifyRequest) =>
  `staff-${createHash('sha256')
    .update(signedCookie(request, STAFF_COOKIE) ?? '')
    .digest('hex')
    .slice(0, 8)}`;

/** A refused decision body, with a code per mistake the console can name. */
function decisionError(body: unknown) {
  const parsed = staffDecisionSchema.safeParse(body);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  const field = issue?.path[0];
  if (field === 'reason')
    return validationError('Choose a reason for the decision.', 'review.reasonRequired');
  if (field === 'note' && issue?.code === 'too_big')
    return validationError(`The note is longer than ${MAX_REVIEW_NOTE} characters.`, 'review.noteTooLong');
  if (field === 'note') return validationError('Say why in the note.', 'review.noteRequired');
  return validationError(issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid decision.');
}

/** The staff console's view of verifications: the list, one with its data and events, decisions, erasure. */
export function staffVerificationRoutes(
  app: FastifyInstance,
  { store, sync, upstream, hub, config, flows }: BffDeps,
) {
  const forBrowser = <T>(value: T) => rewriteMediaUrls(value, upstream.origin).data as T;

  const detail = async (id: string, request: FastifyRequest) => {
    const requestId = request.id;
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
    const [events, results, reviews] = await Promise.all([
      store.eventsOf(id),
      store.inputResultsOf(id),
      store.reviewsOf(id),
    ]);
    const reviewer = reviewerOf(request);
    const rewritten = data === null ? null : rewriteMediaUrls(data, upstream.origin);
    return {
      data: rewritten ? (rewritten.data as VerificationData) : null,
      media: [...new Set(rewritten?.media.map((m) => bffPaths.staffMedia(m.id)) ?? [])],
      events: events.map((event) => ({ ...event, body: forBrowser(event.body) })),
      summary: stored.summary,
      deletionDate: RetentionSweep.deletionDate(config.retentionDays, stored.summary.updatedAt),
      inputs: inputStatesOf(data, events, results),
      reviews: reviews.map(({ verificationId: _, ...review }) => ({
        ...review,
        byYou: review.reviewer === reviewer,
      })),
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
    async (request) => detail((request.params as z.infer<typeof idParams>).id, request),
  );

  // A reviewer's decision: recorded here with who, when and why, then sent through the service's
  // documented status route. That route takes `{status}` alone and the webhooks carry the
  // creation's metadata, so the reason and the note stay in the BFF (see README).
  app.put(
    '/api/staff/verifications/:id/status',
    {
      // Validated in the handler, so that each mistake gets its own code.
      attachValidation: true,
      schema: {
        params: idParams,
        body: staffDecisionSchema,
        response: { 200: staffVerificationDetailSchema },
      },
    },
    async (request) => {
      const { id } = request.params as z.infer<typeof idParams>;
      if (request.validationError) {
        if (request.validationError.validationContext === 'params')
          throw validationError(request.validationError.message);
        throw decisionError(request.body);
      }
      const body = request.body as z.output<typeof staffDecisionSchema>;
      const stored = await store.getVerification(id);
      if (!stored) throw notFound('No such verification.');
      if (!reviewReasonCodes(flows.get(stored.summary.flowId), body.status).includes(body.reason)) {
        throw validationError(
          `"${body.reason}" is not a reason for ${body.status} on this flow.`,
          'review.unknownReason',
        );
      }
      const review = {
        id: randomUUID(),
        verificationId: id,
        decision: body.status,
        reason: body.reason,
        note: body.note ?? null,
        reviewer: reviewerOf(request),
        decidedAt: new Date().toISOString(),
      };
      await store.recordReview(review);
      try {
        await upstream.json('PUT', `/v2/verifications/${encodeURIComponent(id)}/status`, {
          body: { status: body.status },
          requestId: request.id,
        });
      } catch (error) {
        // The service did not take it: the history shows only decisions that hold.
        await store.deleteReview(review.id);
        throw error;
      }
      const answer = await detail(id, request);
      // Other open consoles fetch the page again (the history), even when the status stayed.
      hub.publish({ kind: 'verification', verification: answer.summary });
      return answer;
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
