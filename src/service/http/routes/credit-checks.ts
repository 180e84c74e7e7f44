import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  arCreditCheckSchema,
  brCreditCheckSchema,
  creditCheckAcceptedSchema,
} from '@/shared/contract/credit-check';
import type { ServiceContext } from '../../verification/context';
import type { CreditChecks } from '../../verification/credit-checks';
import { unprocessable } from '../../verification/service-error';

const notJson = Symbol('not JSON');

/**
 * Credit checks (service spec 4.3, 4.4, wire contract §8): accepted at once, the result is delivered
 * to callbackUrl by a durable job (verification/credit-checks.ts).
 */
export async function creditCheckRoutes(
  app: FastifyInstance,
  { ctx, creditChecks }: { ctx: ServiceContext; creditChecks: CreditChecks },
) {
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
    const id = await creditChecks.accept(country, parsed.data);
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
