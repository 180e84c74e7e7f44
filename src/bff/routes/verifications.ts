import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  createdVerificationSchema,
  createVerificationRequestSchema,
  verificationStatusSchema,
  type CreatedVerification,
  type CreateVerificationRequest,
  type VerificationStatus,
} from '@/shared/contract/bff-api';
import { creationAnswerSchema } from '@/shared/contract/service-api';
import { completedStepsOf } from '@/shared/contract/verification';
import type { BffDeps } from '../deps';
import { forbidden, upstreamFailed } from '../errors';
import { captureSessionId, startCaptureSession } from '../http/sessions';
import { envelopeOf } from '../upstream/upstream-client';

export const serviceId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);
const verificationParams = z.object({ id: serviceId });

/** What the service should see of the person behind the BFF: their browser's user agent and address. */
const personHeaders = (request: FastifyRequest): Record<string, string> => {
  const ua = request.headers['user-agent'];
  // Their address too (X-Forwarded-For, believed by the service from its TRUSTED_PROXIES only).
  return {
    ...(typeof ua === 'string' ? { 'user-agent': ua.slice(0, 512) } : {}),
    'x-forwarded-for': request.ip,
  };
};

/** Creates verifications for the browser's session, and lets it act on its own ones only. */
export function verificationRoutes(app: FastifyInstance, { upstream, store, hub, sync }: BffDeps) {
  /**
   * A verification the service created but the browser never learns of (the BFF failed after the
   * service's answer) would stay there with the person's metadata until its retention: it is
   * deleted at once. If that fails too, the service's own expiry and retention remain.
   */
  const abandon = async (request: FastifyRequest, id: string) => {
    try {
      const res = await upstream.call({
        method: 'DELETE',
        path: `/v2/verifications/${encodeURIComponent(id)}`,
        requestId: request.id,
      });
      await res.body.dump();
      if (res.statusCode >= 300 && res.statusCode !== 404) throw new Error(`HTTP ${res.statusCode}`);
    } catch (err) {
      request.log.warn(
        { err, verificationId: id },
        'a verification whose creation failed is left at the service',
      );
    }
  };

  const requireOwnVerification = async (request: FastifyRequest) => {
    const { id } = verificationParams.parse(request.params);
    const session = captureSessionId(request);
    if (!session || !(await store.sessionOwnsVerification(session, id))) throw forbidden();
    return id;
  };

  app.post(
    '/api/verifications',
    { schema: { body: createVerificationRequestSchema, response: { 201: createdVerificationSchema } } },
    async (request, reply) => {
      const body = request.body as CreateVerificationRequest;
      const { body: answer } = await upstream.json('POST', '/v2/verifications', {
        body: { flowId: body.flowId, metadata: body.metadata ?? {} },
        requestId: request.id,
        // The device fingerprint is the person's, not the BFF's.
        headers: personHeaders(request),
      });
      const created = creationAnswerSchema.safeParse(answer);
      if (!created.success) {
        // An answer of an unknown shape may still name what was created.
        const named = serviceId.safeParse((answer as { id?: unknown } | null)?.id);
        if (named.success) await abandon(request, named.data);
        throw upstreamFailed('The service created no verification.');
      }
      const { id, identity, flow, livenessChallenge } = created.data;
      let summary;
      try {
        const session = startCaptureSession(request, reply);
        summary = await store.bindVerification(session, {
          verificationId: id,
          identity,
          flowId: flow.id,
          flowName: flow.name,
        });
      } catch (error) {
        await abandon(request, id);
        throw error;
      }
      hub.publish({ kind: 'verification', verification: summary });
      // Passed on as the service chose it; a service that sets none (the hosted API) leaves it out.
      const result: CreatedVerification = {
        verificationId: id,
        identity,
        flow,
        ...(livenessChallenge ? { livenessChallenge } : {}),
      };
      return reply.code(201).send(result);
    },
  );

  app.put('/api/verifications/:id/skip-upload-wait', async (request, reply) => {
    const id = await requireOwnVerification(request);
    const res = await upstream.call({
      method: 'PUT',
      path: `/v2/verifications/${encodeURIComponent(id)}/inputs/document-photo/skip`,
      requestId: request.id,
    });
    if (res.statusCode >= 300) throw await envelopeOf(res);
    await res.body.dump();
    return reply.code(204).send();
  });

  app.get(
    '/api/verifications/:id/status',
    { schema: { params: verificationParams, response: { 200: verificationStatusSchema } } },
    async (request) => {
      const id = await requireOwnVerification(request);
      // Polled, possibly by many tabs at once: a fetch under way answers them all.
      const { data } = await sync.refresh(id, request.id, { fresh: false });
      const status: VerificationStatus = {
        verificationId: id,
        status: data.identity.status,
        completedSteps: completedStepsOf(data),
      };
      return status;
    },
  );
}
