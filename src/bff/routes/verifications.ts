import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CreatedVerification, VerificationStatus } from '@/shared/contract/bff-api';
import { createVerificationSchema } from '@/shared/contract/verification';
import type { BffDeps } from '../deps';
import { forbidden, upstreamFailed } from '../errors';
import { completedStepsOf, statusOfData } from '../lib/verification-sync';
import { captureSessionId, ensureCaptureSession } from '../lib/sessions';
import { envelopeOf } from '../upstream/upstream-client';

export const serviceId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);
const verificationParams = z.object({ id: serviceId });

interface CreatedByService {
  id?: unknown;
  identity?: unknown;
  flow?: { id?: unknown; name?: unknown };
}

/** Creates verifications for the browser's session, and lets it act on its own ones only. */
export function verificationRoutes(app: FastifyInstance, { upstream, store, hub, sync }: BffDeps) {
  const requireOwnVerification = async (request: FastifyRequest) => {
    const { id } = verificationParams.parse(request.params);
    const session = captureSessionId(request);
    if (!session || !(await store.sessionOwnsVerification(session, id))) throw forbidden();
    return id;
  };

  app.post('/api/verifications', async (request, reply) => {
    const body = createVerificationSchema.parse(request.body);
    const { body: created } = await upstream.json<CreatedByService>('POST', '/v2/verifications', {
      body: { flowId: body.flowId, metadata: body.metadata ?? {} },
      requestId: request.id,
    });
    const identity =
      typeof created.identity === 'string'
        ? created.identity
        : typeof (created.identity as { id?: unknown } | null)?.id === 'string'
          ? (created.identity as { id: string }).id
          : null;
    if (typeof created.id !== 'string' || !identity)
      throw upstreamFailed('The service created no verification.');
    const flow = {
      id: typeof created.flow?.id === 'string' ? created.flow.id : body.flowId,
      name: typeof created.flow?.name === 'string' ? created.flow.name : body.flowId,
    };
    const session = ensureCaptureSession(request, reply);
    const summary = await store.bindVerification(session, {
      verificationId: created.id,
      identity,
      flowId: flow.id,
      flowName: flow.name,
    });
    hub.publish({ kind: 'verification', verification: summary });
    const answer: CreatedVerification = { verificationId: created.id, identity, flow };
    return reply.code(201).send(answer);
  });

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

  app.get('/api/verifications/:id/status', async (request) => {
    const id = await requireOwnVerification(request);
    const { data } = await sync.refresh(id, request.id);
    const raw = data as Parameters<typeof statusOfData>[0];
    const status: VerificationStatus = {
      verificationId: id,
      status: statusOfData(raw),
      completedSteps: completedStepsOf(raw),
    };
    return status;
  });
}
