import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The browser's capture session: a random id in a signed cookie; what it owns is in the store. */
export const SESSION_COOKIE = 'idv_session';
/** The staff console's session, kept apart so that a capture session never opens the staff API. */
export const STAFF_COOKIE = 'idv_staff';
export const STAFF_SESSION_MS = 8 * 60 * 60 * 1000;

// Checking a signature costs an HMAC on every request of a session; the answer never changes for
// the same cookie value and key, so it is remembered per app (each has its own key), in a map that
// is emptied when it gets big.
const verifiedByApp = new WeakMap<object, Map<string, string | null>>();

/** The value of a signed cookie, or null when it is missing or its signature is wrong. */
export function signedCookie(request: FastifyRequest, name: string): string | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  let verified = verifiedByApp.get(request.server);
  if (!verified) {
    verified = new Map();
    verifiedByApp.set(request.server, verified);
  }
  const key = `${name}=${raw}`;
  let value = verified.get(key);
  if (value === undefined) {
    const unsigned = request.unsignCookie(raw);
    value = unsigned.valid && unsigned.value ? unsigned.value : null;
    if (verified.size >= 10_000) verified.clear();
    verified.set(key, value);
  }
  return value;
}

export function captureSessionId(request: FastifyRequest) {
  return signedCookie(request, SESSION_COOKIE);
}

/**
 * A new capture session for this browser (cookie set), whatever cookie it came with: a session id
 * planted in the browser beforehand (session fixation) must not end up owning the verification
 * about to be bound to it. Verifications bound to an earlier session stay with that one.
 */
export function startCaptureSession(request: FastifyRequest, reply: FastifyReply): string {
  const id = randomUUID();
  void reply.setCookie(SESSION_COOKIE, id, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: 24 * 60 * 60,
  });
  return id;
}
