import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createdIdentitySchema, createVerificationSchema } from '@/shared/contract/service-api';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import type { VerificationRow } from '../../storage/rows';
import type { ServiceContext } from '../../verification/context';
import { notFound } from '../../verification/service-error';
import type { Lifecycle } from '../../verification/lifecycle';
import { sendInput } from '../../verification/send-input';
import { createVerification } from './verifications';

const creationBody = createVerificationSchema.optional();
const identityParams = z.object({ identity: z.string() });

const identityOf = (v: VerificationRow): z.input<typeof createdIdentitySchema> => ({
  _id: v.identity,
  status: v.status,
  flowId: v.flow_id,
  metadata: v.metadata ? (JSON.parse(v.metadata) as Record<string, unknown>) : {},
  dateCreated: new Date(v.created_at).toISOString(),
  dateUpdated: new Date(v.updated_at).toISOString(),
  verificationId: v.id,
});

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
      const { v } = await createVerification(ctx, lifecycle, request, body);
      return identityOf(v);
    },
  );

  // An identity as the hosted API gives it back: the state of its newest verification.
  app.get(
    '/v2/identities/:identity',
    { schema: { params: identityParams, response: { 200: createdIdentitySchema } } },
    async (request) => {
      const v = await ctx.repo.byIdentity((request.params as z.infer<typeof identityParams>).identity);
      if (!v) throw notFound('No identity has this id.');
      return identityOf(v);
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
