import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { staffLoginSchema, staffSessionSchema } from '@/shared/contract/bff-api';
import type { BffDeps } from '../deps';
import { authError, BffHttpError } from '../errors';
import { signedCookie, STAFF_COOKIE, STAFF_SESSION_MS } from '../http/sessions';
import { openRoute } from '@/server-shared/route-rules';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares hashes, so that neither the length nor the content of the password leaks through timing. */
export const passwordMatches = (given: string, expected: string) =>
  timingSafeEqual(digest(given), digest(expected));

/** The staff session of a request, or a 401 envelope. */
export async function requireStaff(request: FastifyRequest, { store }: Pick<BffDeps, 'store'>) {
  const id = signedCookie(request, STAFF_COOKIE);
  const expiresAt = id ? await store.staffSessionExpiry(id) : null;
  if (!id || !expiresAt) throw authError('Staff sign-in required.', 'staff.unauthenticated');
  return { id, expiresAt };
}

/** Staff sign-in: one shared password (STAFF_PASSWORD), an 8-hour signed cookie. */
export function staffSessionRoutes(app: FastifyInstance, deps: BffDeps) {
  const { store, config, loginLimiter } = deps;

  const answers = { response: { 200: staffSessionSchema } };
  app.post(
    '/api/staff/login',
    { ...openRoute, schema: { body: staffLoginSchema, ...answers } },
    async (request, reply) => {
      if (!(await loginLimiter.attempt(request.ip))) {
        throw new BffHttpError(429, {
          code: 'staff.tooManyAttempts',
          type: 'AuthError',
          message: 'Too many sign-in attempts; wait a minute.',
        });
      }
      const { password } = request.body as { password: string };
      if (!passwordMatches(password, config.staffPassword))
        throw authError('Wrong password.', 'staff.badPassword');
      await loginLimiter.succeeded(request.ip);
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + STAFF_SESSION_MS);
      await store.createStaffSession(id, expiresAt);
      void reply.setCookie(STAFF_COOKIE, id, {
        signed: true,
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        path: '/',
        maxAge: STAFF_SESSION_MS / 1000,
      });
      return { authenticated: true, expiresAt: expiresAt.toISOString() };
    },
  );

  app.post(
    '/api/staff/logout',
    { schema: { response: { 204: { contentType: 'none' } } } },
    async (request, reply) => {
      const id = signedCookie(request, STAFF_COOKIE);
      if (id) await store.deleteStaffSession(id);
      void reply.clearCookie(STAFF_COOKIE, { path: '/' });
      return reply.code(204).send();
    },
  );

  app.get('/api/staff/me', { schema: answers }, async (request) => {
    const { expiresAt } = await requireStaff(request, deps);
    return { authenticated: true, expiresAt: expiresAt.toISOString() };
  });
}
