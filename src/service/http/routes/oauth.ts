import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { olderTokenSchema, tokenSchema } from '@/shared/contract/service-api';
import { checkClientCredentials, issueToken } from '../auth';
import type { ServiceContext } from '../../verification/context';
import { ServiceError } from '../../verification/service-error';
import { openRoute } from '@/server-shared/route-rules';

const WINDOW_MS = 60_000;

/**
 * Wrong client credentials per address and minute. Only failures count, so that a BFF renewing its
 * token as often as it likes is never slowed; past the limit wrong credentials from the address
 * get 429 until its minute is over. The right ones are never refused (a lockout provoked by
 * someone else must not stop the real client), so guessing rests on the secret's length, which
 * production enforces by refusing the development secret.
 */
class FailedAttempts {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly maxPerMinute: number) {}

  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfter(address: string, now = Date.now()): number {
    const entry = this.failures.get(address);
    if (!entry || entry.resetAt <= now) return 0;
    return entry.count >= this.maxPerMinute ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  failed(address: string, now = Date.now()) {
    if (this.failures.size > 10_000) {
      for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
    }
    const entry = this.failures.get(address);
    if (!entry || entry.resetAt <= now) this.failures.set(address, { count: 1, resetAt: now + WINDOW_MS });
    else entry.count++;
  }
}

/**
 * POST /oauth: client credentials → access token (wire contract §1); POST /oauth/token, the older
 * route some clients of the hosted API still call, answers the same way with the same failure
 * count (one per address whichever route the guesses take).
 */
export async function oauthRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  const attempts = new FailedAttempts(ctx.config.oauthFailuresPerMinute);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  const grant = async (request: FastifyRequest, reply: FastifyReply) => {
    // The right credentials are always accepted, also while the address is locked out: a burst of
    // wrong ones from the client's address (a neighbour behind the same NAT, a forged callback)
    // must never stop the real client. Past the limit wrong ones get 429 without being counted.
    // Keyed on the connection's own address, not the X-Forwarded-For a trusted proxy may pass
    // (request.ip, meant for the ip-validation step): a client on loopback could otherwise name a
    // new address with every guess and never be counted.
    const address = request.socket.remoteAddress ?? request.ip;
    try {
      checkClientCredentials(ctx.config, request.headers.authorization);
    } catch (error) {
      const wait = attempts.retryAfter(address);
      if (wait > 0) {
        void reply.header('retry-after', String(wait));
        throw new ServiceError(429, {
          code: 429,
          type: 'IntegrationError',
          name: 'too_many_requests',
          message: `too many wrong client credentials from this address; try again in ${wait} s`,
        });
      }
      attempts.failed(address);
      throw error;
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'client_credentials') {
      throw new ServiceError(400, {
        code: 400,
        name: 'unsupported_grant_type',
        message: 'grant_type must be client_credentials (form-encoded)',
      });
    }
    return issueToken(ctx.config);
  };
  app.post('/oauth', { ...openRoute, schema: { response: { 200: tokenSchema } } }, grant);
  app.post(
    '/oauth/token',
    { ...openRoute, schema: { response: { 200: olderTokenSchema } } },
    async (request, reply) => {
      const token = await grant(request, reply);
      return { ...token, token_type: 'Bearer' as const, expires_in: token.expiresIn };
    },
  );
}
