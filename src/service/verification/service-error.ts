/** Request-level failures, raised by the domain and the routes; `http/errors.ts` turns them into the wire contract's bodies. */
export type ErrorType = 'IntegrationError' | 'ValidationError' | 'SystemError';

export class ServiceError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: { code: number | string; type?: ErrorType; name: string; message: string },
  ) {
    super(body.message);
  }
}

export const integrationError = (message: string, name = 'invalid_request') =>
  new ServiceError(400, { code: 400, type: 'IntegrationError', name, message });
/** An unknown identity, verification, flow or media: the hosted API's EntityNotFoundError. */
export const notFound = (message: string) =>
  new ServiceError(404, { code: 404, type: 'IntegrationError', name: 'EntityNotFoundError', message });
export const unauthorized = (message: string, name: 'invalid_client' | 'unauthorized' = 'unauthorized') =>
  new ServiceError(401, { code: 401, name, message });
export const tooLarge = (message: string) =>
  new ServiceError(413, { code: 413, type: 'ValidationError', name: 'file_too_large', message });
export const unsupportedFormat = (message: string) =>
  new ServiceError(415, { code: 415, type: 'ValidationError', name: 'unsupported_format', message });
/** The disk is full (or read-only): nothing of the request is kept; the client may try later. */
export const insufficientStorage = () =>
  new ServiceError(507, {
    code: 507,
    type: 'SystemError',
    name: 'storage_unavailable',
    message: 'The service cannot store files right now. Please try again later.',
  });
export const unprocessable = (message: string) =>
  new ServiceError(422, { code: 422, type: 'ValidationError', name: 'invalid_request', message });
