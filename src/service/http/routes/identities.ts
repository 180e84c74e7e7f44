import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { createdIdentitySchema, createVerificationSchema } from '@/shared/contract/service-api';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import type { ServiceContext } from '../../verification/context';
import type { Lifecycle } from '../../verification/lifecycle';
import { sendInput } from '../../verification/send-input';
import { createVerification } from './verifications';

const creationBody = createVerificationSchema.optional();

export async function identityRoutes(
  app: FastifyInstance,
  opts: { ctx: ServiceContext; lifecycle: Lifecycle },
) {
  const { ctx, lifecycle } = opts;

  // Any other content type reaches the handler unread, to be refused as "not multipart" (wire contract §4).
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // The older creation form (wire contract §3), which existing client libraries use.
  app.post(
    '/v2/identities',
    { schema: { body: creationBody, response: { 200: createdIdentitySchema } } },
    async (request) => {
      const body = request.body as z.output<typeof creationBody>;
      const { plan, v, metadata } = createVerification(ctx, lifecycle, request, body);
      return {
        _id: v.identity,
        status: 'pending' as const,
        flowId: plan.flow.id,
        metadata,
        dateCreated: new Date(v.created_at).toISOString(),
        dateUpdated: new Date(v.updated_at).toISOString(),
        verificationId: v.id,
      };
    },
  );

  app.post<{ Params: { identity: string } }>(
    '/v2/identities/:identity/send-input',
    {
      schema: {
        response: { 201: sendInputResponseSchema },
        // The multipart body is read as a stream by the route; documented here, not validated.
      },
    },
    async (request, reply) => {
      const results = await sendInput(ctx, lifecycle, request, request.params.identity);
      return reply.status(201).send(results);
    },
  );
}
