import type { FastifyError, FastifyInstance } from 'fastify';
import { drainBody } from '@/server-shared/drain-body';
import { serviceErrorSchema, type ServiceErrorBody } from '@/shared/contract/service-api';
import { MAX_FILE_BYTES, MAX_SEND_INPUT_BODY_BYTES } from '@/shared/limits';
import {
  ServiceError,
  integrationError,
  unauthorized,
  tooLarge,
  insufficientStorage,
} from '../verification/service-error';
import { isStorageError, type MediaStore } from '../storage/media-store';

/** Fastify's and the multipart plugin's own errors, mapped to the wire contract's bodies (§1). */
function fromFastifyError(error: FastifyError): ServiceError {
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge('the request or one of its files is too large');
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ServiceError(413, {
        code: 413,
        type: 'ValidationError',
        name: 'too_many_parts',
        message: 'too many files or fields in the form',
      });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return integrationError('the body must be a multipart form', 'not_multipart');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError(415, {
        code: 415,
        type: 'IntegrationError',
        name: 'unsupported_media_type',
        message: 'unsupported content type',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return integrationError(error.message);
  }
  if (error.statusCode === 401) return unauthorized(error.message);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Malformed JSON or multipart bodies, prototype pollution attempts and the like.
    return new ServiceError(error.statusCode, {
      code: error.statusCode,
      type: 'IntegrationError',
      name: 'invalid_request',
      message: error.message,
    });
  }
  return new ServiceError(500, {
    code: 500,
    type: 'SystemError',
    name: 'internal',
    message: 'internal error',
  });
}

/** Every error body carries the status twice beside its code, as the hosted API's do. */
const errorBody = (error: ServiceError): ServiceErrorBody =>
  serviceErrorSchema.parse({ ...error.body, status: error.statusCode, statusCode: error.statusCode });

export function installErrorHandler(app: FastifyInstance, media: MediaStore) {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    const storage = !(error instanceof ServiceError) && isStorageError(error);
    // Health answers 503 from now until a write works again.
    if (storage) media.failing = true;
    const mapped =
      error instanceof ServiceError ? error : storage ? insufficientStorage() : fromFastifyError(error);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    const body = errorBody(mapped);
    const raw = request.raw;
    // A refusal that asked for the connection to close (too busy to read anything) is not drained.
    if (raw.complete || reply.getHeader('connection') === 'close')
      return reply.status(mapped.statusCode).send(body);
    // A body too large to bother with: the connection closes after the answer.
    if (mapped.body.name === 'file_too_large')
      return reply.status(413).header('connection', 'close').send(body);
    // Any other refusal before the body was read to its end (an unknown identity, a bad token, a
    // bad part): the rest is read and dropped first, so that a client still sending reads the
    // answer rather than a reset. Without a valid token only one file's worth is read.
    const limit = mapped.statusCode === 401 ? MAX_FILE_BYTES : MAX_SEND_INPUT_BODY_BYTES;
    return drainBody(raw, limit).then((drained) => {
      if (drained) return reply.status(mapped.statusCode).send(body);
      request.log.info({ status: mapped.statusCode }, 'connection closed after a refusal');
      return reply.hijack();
    });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(
      errorBody(
        new ServiceError(404, {
          code: 404,
          type: 'IntegrationError',
          name: 'not_found',
          message: `no route ${request.method} ${request.url}`,
        }),
      ),
    ),
  );
}
