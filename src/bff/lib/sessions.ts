import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The browser's capture session: a random id in a signed cookie; what it owns is in the store. */
export const SESSION_COOKIE = 'idv_session';
/** The staff console's session, kept apart so that a capture session never opens the staff API. */
export const STAFF_COOKIE = 'idv_staff';
export const STAFF_SESSION_MS = 8 * 60 * 60 * 1000;

/** The value of a signed cookie, or null when it is missing or its signature is wrong. */
export function signedCookie(request: FastifyRequest, name: string): string | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

export function captureSessionId(request: FastifyRequest) {
  return signedCookie(request, SESSION_COOKIE);
}

/** The capture session of this browser, started (cookie set) if it has none yet. */
export function ensureCaptureSession(request: FastifyRequest, reply: FastifyReply): string {
  const existing = captureSessionId(request);
  if (existing) return existing;
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
