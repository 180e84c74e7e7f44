import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  handoffRequestSchema,
  type ClaimedHandoff,
  type Handoff,
  type HandoffCarry,
  type HandoffState,
} from '@/shared/contract/bff-api';
import { planFlow } from '@/shared/flow-plan';
import type { Flow } from '@/shared/flow';
import type { BffDeps } from '../deps';
import { BffHttpError, forbidden, notFound, validationError } from '../errors';
import { HandoffTokens } from '../domain/handoff-tokens';
import { captureSessionId, startCaptureSession } from '../http/sessions';
import { serviceId } from './verifications';

/** How far ahead of ours the computer's clock may be when it says when the person agreed. */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

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

/** A stored carry, checked again on the way out (null if absent or unreadable). */
function readCarry(stored: string | null): HandoffCarry | null {
  if (!stored) return null;
  try {
    const parsed = handoffRequestSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Each document the computer hands over is one the flow offers at that step: its type, a
 * country of the step, and a region of that country where the flow asks for one (none where not).
 */
function checkCarry(flow: Flow | undefined, carry: HandoffCarry): string | null {
  const documents = flow ? planFlow(flow).documents : [];
  const groups = new Set<number>();
  for (const chosen of carry.documents) {
    const planned = documents.find((d) => d.group === chosen.group);
    if (!planned || planned.kind !== 'document') return `no document step ${chosen.group} in the flow`;
    if (groups.has(chosen.group)) return `document step ${chosen.group} twice`;
    groups.add(chosen.group);
    const { step } = planned;
    if (!(step.types as string[]).includes(chosen.type))
      return `${chosen.type} is not a document of step ${chosen.group}`;
    if (!step.countries.includes(chosen.country))
      return `${chosen.country} is not a country of step ${chosen.group}`;
    const regions = step.regions[chosen.country] ?? [];
    if (chosen.region !== undefined && !regions.includes(chosen.region))
      return `${chosen.region} is not a region of ${chosen.country}`;
  }
  return null;
}

/**
 * Desktop-to-phone handoff: the desktop's session asks for a link to its verification; the phone
 * that opens it (once, within ten minutes) is bound to the same verification and continues it;
 * the desktop follows its status until the phone has sent everything.
 */
export function handoffRoutes(app: FastifyInstance, { store, sync, publicUrl, flows }: BffDeps) {
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
    // The phone asks nothing the computer asked: the consent given there and the documents chosen.
    const parsed = handoffRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success)
      throw validationError(`Invalid handoff: ${parsed.error.issues[0]?.message ?? 'body'}.`);
    // A consent dated ahead would read, on the phone and in the records, as given later than it was.
    if (Date.parse(parsed.data.consentedAt) > Date.now() + CONSENT_CLOCK_SKEW_MS)
      throw validationError('Invalid handoff: consentedAt is in the future.');
    const wrong = checkCarry(flows.get(summary.flowId), parsed.data);
    if (wrong) throw validationError(`Invalid handoff: ${wrong}.`);
    const { token, expiresAt } = await tokens.issue({
      verificationId: id,
      identity,
      flowId: summary.flowId,
      flowName: summary.flowName,
      carry: JSON.stringify(parsed.data),
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
      carry: readCarry(grant.carry),
    };
    void reply.header('cache-control', 'no-store');
    return reply.code(200).send(answer);
  });
}
