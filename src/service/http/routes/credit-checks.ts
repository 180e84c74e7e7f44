import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  arCreditCheckSchema,
  brCreditCheckSchema,
  creditCheckAcceptedSchema,
} from '@/shared/contract/credit-check';
import type { ServiceContext } from '../../verification/context';
import { syntheticBureauResult } from '../../verification/credit-bureau';
import { unprocessable } from '../../verification/service-error';
import { newId } from '../../verification/lifecycle';

const notJson = Symbol('not JSON');

/** Credit checks (service spec 4.3, 4.4, wire contract §8): accepted at once, the result is delivered to callbackUrl. */
export async function creditCheckRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  // A body that is not JSON is an invalid request like any other here: 422, not a parser's 400.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, notJson);
    }
  });
  const accept = async (
    country: 'ar' | 'br',
    schema: z.ZodType<Record<string, unknown> & { callbackUrl: string }>,
    body: unknown,
  ) => {
    if (body === notJson) throw unprocessable('the body is not JSON');
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw unprocessable(`${issue.path.join('.') || 'body'}: ${issue.message}`);
    }
    // The callback URL against the outbound policy (checked again at every delivery).
    const verdict = await ctx.outbound.check(parsed.data.callbackUrl);
    if (!verdict.ok) throw unprocessable(`callbackUrl: ${verdict.reason}`);
    const { callbackUrl, ...request } = parsed.data;
    const id = newId();
    const result = syntheticBureauResult(country, request);
    const now = Date.now();
    await ctx.repo.transaction(async (tx) => {
      await tx.insertCreditCheck({
        id,
        country,
        request: JSON.stringify(parsed.data),
        status: 'completed',
        result: JSON.stringify(result),
        created_at: now,
      });
      await tx.enqueueEvent(callbackUrl, 'credit_check_completed', {
        eventName: 'credit_check_completed',
        id,
        country,
        request,
        result,
        timestamp: new Date(now).toISOString(),
      });
    });
    ctx.outbox.resume();
    return { id, status: 'pending' as const };
  };
  // The hosted path ends in `credit-bureau`; CREDIT_CHECK_SEGMENTS adds others.
  const schema = { response: { 202: creditCheckAcceptedSchema } };
  for (const segment of ctx.config.creditCheckSegments) {
    app.post(`/creditchecks/v1/ar/${segment}`, { schema }, async (request, reply) => {
      return reply.status(202).send(await accept('ar', arCreditCheckSchema, request.body));
    });
    app.post(`/creditchecks/v1/br/${segment}`, { schema }, async (request, reply) => {
      return reply.status(202).send(await accept('br', brCreditCheckSchema, request.body));
    });
  }
}
