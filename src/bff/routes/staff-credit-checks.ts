import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { creditCheckRecordSchema, type CreditCheckRecord } from '@/shared/contract/bff-api';
import {
  arCreditCheckFormSchema,
  brCreditCheckFormSchema,
  creditCheckAcceptedSchema,
} from '@/shared/contract/credit-check';
import type { BffDeps } from '../deps';
import { upstreamFailed } from '../errors';

/** Credit checks started from the console; their results arrive on /webhooks/credit-check. */
export function staffCreditCheckRoutes(
  app: FastifyInstance,
  { upstream, store, hub, publicUrl, config }: BffDeps,
) {
  const start = async (country: 'ar' | 'br', form: Record<string, unknown>, requestId: string) => {
    const { body } = await upstream.json('POST', `/creditchecks/v1/${country}/${config.creditCheckSegment}`, {
      body: { ...form, callbackUrl: `${publicUrl()}/webhooks/credit-check` },
      requestId,
    });
    const accepted = creditCheckAcceptedSchema.safeParse(body);
    if (!accepted.success) throw upstreamFailed('The service did not accept the credit check.');
    const record: CreditCheckRecord = {
      id: accepted.data.id,
      country,
      request: form,
      status: 'pending',
      result: null,
      error: null,
      createdAt: new Date().toISOString(),
      completedAt: null,
    };
    const stored = await store.createCreditCheck(record);
    hub.publish({ kind: 'credit-check', creditCheck: stored });
    return stored;
  };

  const created = { 201: creditCheckRecordSchema };
  app.post(
    '/api/staff/credit-checks/ar',
    { schema: { body: arCreditCheckFormSchema, response: created } },
    async (request, reply) =>
      reply.code(201).send(await start('ar', request.body as Record<string, unknown>, request.id)),
  );

  app.post(
    '/api/staff/credit-checks/br',
    { schema: { body: brCreditCheckFormSchema, response: created } },
    async (request, reply) =>
      reply.code(201).send(await start('br', request.body as Record<string, unknown>, request.id)),
  );

  app.get(
    '/api/staff/credit-checks',
    { schema: { response: { 200: z.array(creditCheckRecordSchema) } } },
    async () => store.listCreditChecks(),
  );
}
