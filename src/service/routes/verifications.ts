import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createVerificationSchema } from '@/shared/contract/verification';
import { getInputs, getVerification, type ServiceContext } from '../context';
import { integrationError, notFound, ServiceError } from '../errors';
import { plannedInputs } from '../flow-plan';
import type { Lifecycle } from '../lifecycle';
import { verificationView } from '../verification-data';

export function parseCreation(ctx: ServiceContext, body: unknown) {
  const parsed = createVerificationSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw integrationError(`${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const plan = ctx.plans.get(parsed.data.flowId);
  if (!plan) throw notFound('unknown flow');
  return { plan, metadata: parsed.data.metadata };
}

const reviewSchema = z.object({ status: z.enum(['verified', 'reviewNeeded', 'rejected']) });

export async function verificationRoutes(
  app: FastifyInstance,
  opts: { ctx: ServiceContext; lifecycle: Lifecycle },
) {
  const { ctx, lifecycle } = opts;

  // Contract 3.
  app.post('/v2/verifications', async (request) => {
    const { plan, metadata } = parseCreation(ctx, request.body);
    const v = lifecycle.create(plan.flow.id, metadata);
    return {
      id: v.id,
      identity: v.identity,
      flow: { id: plan.flow.id, name: plan.flow.name },
      inputs: plannedInputs(plan),
      steps: [
        ...(plan.biometric
          ? [{ id: plan.biometric === 'selfie-video' ? 'liveness' : 'selfie', status: 0 }]
          : []),
        { id: 'ip-validation', status: 0 },
      ],
      documents: [],
      metadata: metadata ?? {},
      expired: false,
    };
  });

  // Contract 6.
  app.get<{ Params: { id: string } }>('/v2/verifications/:id', async (request) => {
    const v = getVerification(ctx, request.params.id);
    if (!v) throw notFound('unknown verification');
    return verificationView(ctx, v, getInputs(ctx, v.identity));
  });

  // Contract 5.
  app.put<{ Params: { id: string } }>(
    '/v2/verifications/:id/inputs/document-photo/skip',
    async (request, reply) => {
      const v = getVerification(ctx, request.params.id);
      if (!v) throw notFound('unknown verification');
      await lifecycle.skipWait(v);
      return reply.status(204).send();
    },
  );

  // (ext) Manual review of a finished verification; sends verification_updated.
  app.patch<{ Params: { id: string } }>('/v2/verifications/:id', async (request) => {
    const v = getVerification(ctx, request.params.id);
    if (!v) throw notFound('unknown verification');
    const parsed = reviewSchema.safeParse(request.body);
    if (!parsed.success) throw integrationError('status must be verified, reviewNeeded or rejected');
    if (v.status === 'pending' || v.status === 'running') {
      throw new ServiceError(409, {
        code: 'verification.notFinished',
        type: 'IntegrationError',
        name: 'verification.notFinished',
        message: 'only a finished verification can be reviewed',
      });
    }
    lifecycle.review(v, parsed.data.status);
    return verificationView(ctx, getVerification(ctx, v.id)!, getInputs(ctx, v.identity));
  });
}
