import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import type { BffError } from '@/shared/contract/bff-api';
import { drainBody } from '@/server-shared/drain-body';
import { MAX_SEND_INPUT_BODY_BYTES } from '@/shared/limits';

/** A failure with the status and envelope the browser gets; the one error handler sends it. */
export class BffHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: BffError,
    cause?: unknown,
  ) {
    super(body.message, cause === undefined ? undefined : { cause });
  }
}

export const validationError = (message: string, code = 'request.invalid') =>
  new BffHttpError(400, { code, type: 'ValidationError', message });
export const authError = (message = 'Sign in first.', code = 'auth.required') =>
  new BffHttpError(401, { code, type: 'AuthError', message });
export const forbidden = (message = 'This belongs to another session.') =>
  new BffHttpError(403, { code: 'session.forbidden', type: 'AuthError', message });
export const notFound = (message = 'Not found.') =>
  new BffHttpError(404, { code: 'not_found', type: 'IntegrationError', message });
export const upstreamUnavailable = (cause?: unknown) =>
  new BffHttpError(
    503,
    {
      code: 'upstream.unavailable',
      type: 'SystemError',
      message: 'The verification service is not reachable right now. Please try again shortly.',
    },
    cause,
  );
/** The service's disk is full (its 507): nothing was kept, the same upload works once it has room. */
export const upstreamStorageFull = () =>
  new BffHttpError(503, {
    code: 'upstream.storageFull',
    type: 'SystemError',
    message: 'The verification service cannot store files right now. Please try again later.',
  });
export const upstreamFailed = (
  message = 'The verification service failed to answer.',
  code = 'upstream.error',
) => new BffHttpError(502, { code, type: 'SystemError', message });
export const bodyTooLarge = () =>
  new BffHttpError(413, {
    code: 'request.tooLarge',
    type: 'ValidationError',
    message: 'The upload is too large.',
  });

const fromZod = (error: ZodError) =>
  validationError(
    error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
      .join('; '),
  );

function fromFastify(error: FastifyError): BffHttpError {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new BffHttpError(415, {
        code: 'request.unsupportedMediaType',
        type: 'ValidationError',
        message: error.message,
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return bodyTooLarge();
  }
  if (error.statusCode === 429) {
    return new BffHttpError(429, {
      code: 'rate.limited',
      type: 'ValidationError',
      message: 'Too many requests; slow down.',
    });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new BffHttpError(error.statusCode, {
      code: 'request.invalid',
      type: 'ValidationError',
      message: error.message,
    });
  }
  return new BffHttpError(500, { code: 'internal', type: 'SystemError', message: 'Internal error.' });
}

export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | BffHttpError | ZodError, request, reply) => {
    const mapped =
      error instanceof BffHttpError
        ? error
        : error instanceof ZodError
          ? fromZod(error)
          : fromFastify(error as FastifyError);
    if (mapped.body.code.startsWith('upstream.'))
      request.log.warn({ code: mapped.body.code }, 'service call failed');
    else if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    // A request refused before its body was read (an upload to someone else's identity, say):
    // the body is read and dropped so that the connection stays usable, except a body too large
    // to bother with, whose connection is closed.
    const raw = request.raw;
    if (!raw.complete && !raw.destroyed) {
      if (mapped.statusCode === 413) void reply.header('connection', 'close');
      else void drainBody(raw, MAX_SEND_INPUT_BODY_BYTES);
    }
    return reply.status(mapped.statusCode).send(mapped.body);
  });
}
