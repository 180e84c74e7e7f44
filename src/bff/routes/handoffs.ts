import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ClaimedHandoff, Handoff, HandoffState } from '@/shared/contract/bff-api';
import type { BffDeps } from '../deps';
import { BffHttpError, forbidden, notFound } from '../errors';
import { HandoffTokens } from '../domain/handoff-tokens';
import { captureSessionId, startCaptureSession } from '../http/sessions';
import { serviceId } from './verifications';

/** A handoff link works for ten minutes, once. */
export const HANDOFF_TTL_MS = 10 * 60_000;

const verificationParams = z.object({ id: serviceId });
const tokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/) });

const handoffGone = () =>
  new BffHttpError(410, {
    code: 'handoff.invalid',
    type: 'ValidationError',
    message: 'This link has expired or was used already. Show a new QR code on the computer.',
  });

/**
 * Desktop-to-phone handoff: the desktop's session asks for a link to its verification; the phone
 * that opens it (once, within ten minutes) is bound to the same verification and continues it;
 * the desktop follows its status until the phone has sent everything.
 */
export function handoffRoutes(app: FastifyInstance, { store, sync, publicUrl }: BffDeps) {
  const tokens = new HandoffTokens(store, HANDOFF_TTL_MS);

  const ownVerification = async (request: FastifyRequest) => {
    const { id } = verificationParams.parse(request.params);
    const session = captureSessionId(request);
    if (!session || !(await store.sessionOwnsVerification(session, id))) throw forbidden();
    const stored = await store.getVerification(id);
    if (!stored?.summary.identity) throw notFound('No such verification.');
    return { id, summary: stored.summary, identity: stored.summary.identity };
  };

  app.post('/api/verifications/:id/handoff', async (request, reply) => {
    const { id, summary, identity } = await ownVerification(request);
    const { token, expiresAt } = await tokens.issue({
      verificationId: id,
      identity,
      flowId: summary.flowId,
      flowName: summary.flowName,
    });
    // The phone opens the BFF's public address (PUBLIC_BFF_URL), never the desktop's loopback one.
    const answer: Handoff = {
      url: `${publicUrl()}/handoff/${token}`,
      expiresAt: expiresAt.toISOString(),
    };
    void reply.header('cache-control', 'no-store');
    return reply.code(201).send(answer);
  });

  app.get('/api/verifications/:id/handoff', async (request, reply) => {
    const { id } = await ownVerification(request);
    const grant = await tokens.latest(id);
    // Polled by the desktop while the phone works: a fetch under way will do.
    const { data } = await sync.refresh(id, request.id, { fresh: false });
    const status = data.identity.status;
    const answer: HandoffState = {
      claimed: !!grant?.claimedAt,
      // Processing starts once every input arrived: the phone is done.
      finished: status !== 'pending',
      status,
    };
    void reply.header('cache-control', 'no-store');
    return answer;
  });

  app.post('/api/handoffs/:token/claim', async (request, reply) => {
    const { token } = tokenParams.parse(request.params);
    const grant = await tokens.claim(token);
    if (!grant) throw handoffGone();
    const session = startCaptureSession(request, reply);
    await store.bindVerification(session, {
      verificationId: grant.verificationId,
      identity: grant.identity,
      flowId: grant.flowId,
      flowName: grant.flowName,
    });
    const answer: ClaimedHandoff = {
      flowId: grant.flowId,
      verification: {
        verificationId: grant.verificationId,
        identity: grant.identity,
        flow: { id: grant.flowId, name: grant.flowName ?? grant.flowId },
      },
    };
    void reply.header('cache-control', 'no-store');
    return reply.code(200).send(answer);
  });
}
