import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { drainBody } from '@/server-shared/drain-body';
import { inputsFieldSchema, sendInputResponseSchema } from '@/shared/contract/send-input';
import { slotKeyOf } from '@/shared/flow-plan';
import { MAX_SEND_INPUT_BODY_BYTES } from '@/shared/limits';
import type { BffDeps } from '../deps';
import { BffHttpError, bodyTooLarge, forbidden } from '../errors';
import { MultipartGuard } from '../http/multipart-guard';
import { captureSessionId } from '../http/sessions';
import { envelopeOf, isConnectFailure } from '../upstream/upstream-client';
import { serviceId } from './verifications';

const identityParams = z.object({ identity: serviceId });

/**
 * A body this small (custom fields, a retaken field) is read whole, through the same guard, before
 * it goes on: one write to the service instead of a stream, and a body that can be sent again with
 * a fresh token after a 401. Files bigger than this are always streamed.
 */
const WHOLE_BODY_BYTES = 64 * 1024;

function readWhole(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    stream.once('error', reject);
    // Destroyed without an error (the browser went away): settles the wait; after 'end' a no-op.
    stream.once('close', () => reject(new Error('the body stream closed before its end')));
  });
}

const ANSWER_KEPT_BYTES = 1024 * 1024;

/** A body read whole if it is at most `limit` bytes; else a stream of it again, what was read first. */
async function readUpTo(body: Readable, limit: number): Promise<Buffer | Readable> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    chunks.push(next.value);
    bytes += next.value.length;
    if (bytes > limit) {
      return Readable.from(
        (async function* () {
          yield* chunks;
          for (let n = await iterator.next(); !n.done; n = await iterator.next()) yield n.value;
        })(),
      );
    }
  }
}

const tokenExpired = () =>
  new BffHttpError(503, {
    code: 'upstream.tokenExpired',
    type: 'SystemError',
    message: 'The upload was interrupted by a credential renewal. Please send it again.',
  });

/**
 * send-input: the browser's multipart body is streamed to the service as it arrives (never
 * buffered), with the bearer token added; the service's answer comes back unchanged.
 */
/** Whether an upstream failure was undici's headers or body timeout (the service hung). */
function timedOut(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') return true;
  }
  return false;
}

export function identityRoutes(app: FastifyInstance, { upstream, store, config }: BffDeps) {
  const owned = new Set<string>();

  /**
   * Keeps the service's answer for each descriptor sent (by slot), so that staff see why a refused
   * input waits: the hosted API's verification data says that an input failed, not why. The
   * answer goes to the browser whatever happens here.
   */
  const recordResults = async (
    request: FastifyRequest,
    identity: string,
    inputsField: string | null,
    answer: Buffer,
  ) => {
    try {
      const descriptors = inputsField === null ? null : inputsFieldSchema.safeParse(JSON.parse(inputsField));
      const results = sendInputResponseSchema.safeParse(JSON.parse(answer.toString('utf8')));
      if (!descriptors?.success || !results.success || descriptors.data.length !== results.data.length) {
        request.log.warn('send-input: answer not paired with its descriptors; input results not kept');
        return;
      }
      await store.recordInputResults(
        identity,
        descriptors.data.map((descriptor, i) => {
          const result = results.data[i];
          return {
            slot: slotKeyOf(descriptor),
            accepted: result.result,
            code: result.result ? null : result.error.code,
          };
        }),
        new Date(),
      );
    } catch (error) {
      request.log.warn({ err: error }, 'send-input: input results not kept');
    }
  };
  void app.register(async (scope) => {
    // The body stays unread here; the handler pipes the raw request on.
    scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

    const refuseEarly = async (request: FastifyRequest) => {
      const { identity } = identityParams.parse(request.params);
      const contentType = request.headers['content-type'] ?? '';
      if (!/^multipart\/form-data\s*;/i.test(contentType) || !MultipartGuard.boundaryOf(contentType)) {
        throw new BffHttpError(415, {
          code: 'request.notMultipart',
          type: 'ValidationError',
          message: 'send-input takes a multipart/form-data body.',
        });
      }
      const length = Number(request.headers['content-length'] ?? 0);
      if (length > MAX_SEND_INPUT_BODY_BYTES) throw bodyTooLarge();
      const session = captureSessionId(request);
      if (!session) throw forbidden();
      // An identity, once bound to a session, stays bound: a positive answer is remembered.
      const key = `${session}\n${identity}`;
      if (owned.has(key)) return;
      if (!(await store.sessionOwnsIdentity(session, identity))) throw forbidden();
      if (owned.size >= 10_000) owned.clear();
      owned.add(key);
    };

    scope.post(
      '/api/identities/:identity/send-input',
      { bodyLimit: MAX_SEND_INPUT_BODY_BYTES, onRequest: refuseEarly },
      async (request, reply) => {
        const { identity } = identityParams.parse(request.params);
        const raw = request.raw;
        const counter = new MultipartGuard(MultipartGuard.boundaryOf(request.headers['content-type']!)!);
        // The guard may refuse the body before undici listens (while a token is fetched, say): its
        // refusal is kept in counter.failure and answered below, never thrown at the process.
        counter.on('error', () => undefined);
        const onClientGone = () => {
          if (!raw.complete) counter.destroy(new Error('the browser stopped sending'));
        };
        raw.once('close', onClientGone);
        raw.pipe(counter);
        const stopStreaming = () => {
          raw.off('close', onClientGone);
          raw.unpipe(counter);
          if (!counter.destroyed) counter.destroy();
        };

        const headers: Record<string, string> = {
          'content-type': request.headers['content-type']!,
          // The person's address for the ip-validation step (the service trusts it from the BFF only).
          'x-forwarded-for': request.ip,
        };
        if (request.headers['content-length']) headers['content-length'] = request.headers['content-length'];

        const declared = Number(request.headers['content-length']);
        const whole = Number.isInteger(declared) && declared > 0 && declared <= WHOLE_BODY_BYTES;
        let res;
        try {
          res = await upstream.call({
            method: 'POST',
            path: `/v2/identities/${encodeURIComponent(identity)}/send-input`,
            headers,
            body: whole ? await readWhole(counter) : counter,
            forStream: !whole,
            // A hung service answers in this time or the person is told so (a real send-input of
            // 16 files, PDFs included, is checked well within it).
            timeoutMs: config.sendInputTimeoutMs,
            requestId: request.id,
          });
        } catch (error) {
          stopStreaming();
          if (raw.destroyed && !raw.complete) {
            request.log.info({ bytes: counter.bytes }, 'send-input: the browser stopped sending');
            return reply.hijack();
          }
          if (counter.failure?.statusCode === 413 && counter.failure.body.code === 'request.tooLarge') {
            void reply.header('connection', 'close');
            throw counter.failure;
          }
          if (!(await drainBody(raw, MAX_SEND_INPUT_BODY_BYTES, counter.bytes))) {
            request.log.info('send-input: connection closed after a refusal');
            return reply.hijack();
          }
          if (counter.failure) throw counter.failure;
          if (timedOut(error)) {
            throw new BffHttpError(504, {
              code: 'upstream.timeout',
              type: 'SystemError',
              message: `The verification service did not answer within ${Math.round(config.sendInputTimeoutMs / 1000)} s. Please send it again.`,
            });
          }
          // The service cut the connection during the upload: its answer, if any, was lost with it.
          if (
            error instanceof BffHttpError &&
            error.body.code === 'upstream.unavailable' &&
            !isConnectFailure(error)
          ) {
            throw new BffHttpError(502, {
              code: 'upstream.streamFailed',
              type: 'SystemError',
              message:
                'The verification service closed the connection during the upload. Please send it again.',
            });
          }
          if (error instanceof BffHttpError) throw error;
          request.log.warn({ err: error }, 'send-input stream failed');
          throw new BffHttpError(502, {
            code: 'upstream.streamFailed',
            type: 'SystemError',
            message: 'The upload could not be passed on. Please send it again.',
          });
        }

        if (res.statusCode >= 200 && res.statusCode < 300) {
          raw.off('close', onClientGone);
          void reply.code(res.statusCode);
          const type = res.headers['content-type'];
          if (type) void reply.header('content-type', type);
          // The per-input answer is a few hundred bytes: read as it passes back (its results are
          // kept) and sent in one piece; an unexpectedly large one is streamed and not kept.
          // A chunked answer (no Content-Length) is read the same way, up to the limit.
          const length = Number(res.headers['content-length'] ?? 0);
          const answer = length > ANSWER_KEPT_BYTES ? res.body : await readUpTo(res.body, ANSWER_KEPT_BYTES);
          const sent = reply.send(answer);
          // Kept once the person has the answer: staff read these later, the person waits now.
          if (Buffer.isBuffer(answer) && res.statusCode === 201)
            void recordResults(request, identity, counter.inputsField, answer);
          return sent;
        }

        // The service refused the request (possibly before reading it all): keep its status.
        const failure = res.statusCode === 401 ? tokenExpired() : await envelopeOf(res);
        if (res.statusCode === 401) await res.body.dump().catch(() => undefined);
        stopStreaming();
        if (!(await drainBody(raw, MAX_SEND_INPUT_BODY_BYTES, counter.bytes))) {
          request.log.info('send-input: connection closed after a refusal');
          return reply.hijack();
        }
        throw failure;
      },
    );
  });
}
