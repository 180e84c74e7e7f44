import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  creationAnswerSchema,
  createVerificationSchema,
  statusDecisionSchema,
} from '@/shared/contract/service-api';
import { verificationDataSchema } from '@/shared/contract/verification';
import { issueChallenge } from '../../verification/liveness-attempts';
import type { ServiceContext } from '../../verification/context';
import { notFound, ServiceError } from '../../verification/service-error';
import type { Lifecycle } from '../../verification/lifecycle';
import { deviceFingerprintOf, inputsView, verificationView } from '../../verification/verification-view';

const idParams = z.object({ id: z.string() });
const creationBody = createVerificationSchema.optional();

/**
 * A verification as both creation routes make it: the flow named, or the account's default one;
 * a new identity, or the existing one given (re-verification).
 */
export async function createVerification(
  ctx: ServiceContext,
  lifecycle: Lifecycle,
  request: FastifyRequest,
  body: z.output<typeof creationBody>,
) {
  const plan = ctx.plans.get(body?.flowId ?? ctx.config.defaultFlowId);
  if (!plan) throw notFound('No flow has this id.');
  if (body?.identityId && !(await ctx.repo.byIdentity(body.identityId))) {
    throw notFound('No identity has this id.');
  }
  const challenge =
    plan.biometric === 'selfie-video' && ctx.config.livenessChallenge ? issueChallenge() : null;
  const v = await lifecycle.create(plan.flow.id, body?.metadata, {
    identity: body?.identityId,
    ip: request.ip,
    ua: request.headers['user-agent'] ?? null,
    challenge,
  });
  return { plan, v, metadata: body?.metadata ?? {}, challenge };
}

export async function verificationRoutes(
  app: FastifyInstance,
  opts: { ctx: ServiceContext; lifecycle: Lifecycle },
) {
  const { ctx, lifecycle } = opts;
  const find = async (id: string) => {
    const v = await ctx.repo.get(id);
    if (!v) throw notFound('No verification has this id.');
    return v;
  };
  const view = async (id: string) => {
    const v = await find(id);
    return verificationView(ctx, v, await ctx.repo.inputs(v.id));
  };

  app.post(
    '/v2/verifications',
    { schema: { body: creationBody, response: { 200: creationAnswerSchema } } },
    async (request) => {
      const body = request.body as z.output<typeof creationBody>;
      const { plan, v, metadata, challenge } = await createVerification(ctx, lifecycle, request, body);
      return {
        id: v.id,
        identity: v.identity,
        flow: { id: plan.flow.id, name: plan.flow.name },
        inputs: inputsView(plan, []),
        steps: [
          ...(plan.biometric
            ? [{ id: plan.biometric === 'selfie-video' ? 'liveness' : 'selfie', status: 0 as const }]
            : []),
          { id: 'ip-validation', status: 0 as const },
        ],
        documents: [],
        metadata,
        expired: false,
        deviceFingerprint: deviceFingerprintOf(v),
        hasProblem: false,
        ...(challenge ? { livenessChallenge: challenge } : {}),
      };
    },
  );

  app.get(
    '/v2/verifications/:id',
    { schema: { params: idParams, response: { 200: verificationDataSchema } } },
    async (request) => view((request.params as z.infer<typeof idParams>).id),
  );

  // The hosted service takes the skip as PUT or POST (trailing slash or not: ignoreTrailingSlash).
  app.route({
    method: ['PUT', 'POST'],
    url: '/v2/verifications/:id/inputs/document-photo/skip',
    schema: { params: idParams, response: { 204: { contentType: 'none' } } },
    handler: async (request, reply) => {
      await lifecycle.skipWait(await find((request.params as z.infer<typeof idParams>).id));
      return reply.status(204).send();
    },
  });

  // A reviewer's decision; sends verification_updated.
  app.put(
    '/v2/verifications/:id/status',
    { schema: { params: idParams, body: statusDecisionSchema, response: { 200: verificationDataSchema } } },
    async (request) => {
      const v = await find((request.params as z.infer<typeof idParams>).id);
      if (v.status === 'pending' || v.status === 'running') {
        throw new ServiceError(409, {
          code: 409,
          type: 'IntegrationError',
          name: 'verification.notFinished',
          message:
            'This verification is still in progress. Send the decision once its status is verified, reviewNeeded or rejected.',
        });
      }
      await lifecycle.review(v, (request.body as z.infer<typeof statusDecisionSchema>).status);
      return view(v.id);
    },
  );

  // Erasure: the verification, its inputs and its media, nothing left on disk.
  app.delete(
    '/v2/verifications/:id',
    { schema: { params: idParams, response: { 204: { contentType: 'none' } } } },
    async (request, reply) => {
      await lifecycle.erase(await find((request.params as z.infer<typeof idParams>).id));
      return reply.status(204).send();
    },
  );
}
