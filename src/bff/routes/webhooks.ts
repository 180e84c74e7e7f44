import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { creditCheckResultEventSchema } from '@/shared/contract/credit-check';
import { verificationEventSchema } from '@/shared/contract/webhooks';
import type { BffDeps } from '../deps';
import { BffHttpError, validationError } from '../errors';
import { openUnlimitedRoute } from '@/server-shared/route-rules';

const badSignature = () =>
  new BffHttpError(401, {
    code: 'webhook.badSignature',
    type: 'AuthError',
    message: 'Missing or wrong x-signature.',
  });

/** Open (no session; its body in time), in the webhooks' own slots, outside the rate limit. */
const webhookRoute = openUnlimitedRoute('webhooks');

/** A sender's clock may be this far ahead of ours. */
export const WEBHOOK_CLOCK_SKEW_MS = 5 * 60_000;

const staleWebhook = () =>
  new BffHttpError(400, {
    code: 'webhook.stale',
    type: 'ValidationError',
    message: 'The webhook timestamp is outside the accepted window (a replay, or a clock far off).',
  });

/**
 * The signed time of an event (its body's `timestamp`: the signature covers the body) within
 * `maxAgeMs` before now and the clock skew after; anything else may be an old body replayed.
 */
export function timestampInWindow(timestamp: string, maxAgeMs: number, now = Date.now()): boolean {
  const at = Date.parse(timestamp);
  return Number.isFinite(at) && at >= now - maxAgeMs && at <= now + WEBHOOK_CLOCK_SKEW_MS;
}

/** A webhook body is one event: a few KB. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

const webhookTooLarge = () =>
  new BffHttpError(413, {
    code: 'request.tooLarge',
    type: 'ValidationError',
    message: 'A webhook body is at most 64 KB.',
  });

/** Constant-time check of `x-signature`: hex HMAC-SHA256 of the exact body bytes. */
export function signatureValid(secret: string, body: Buffer, signature: unknown): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/**
 * Webhooks of the service: verified, stored once (a redelivery has the same body hash), answered
 * at once; the data they point to is fetched afterwards by VerificationSync.
 */
export function webhookRoutes(app: FastifyInstance, { config, store, sync, openRoutes }: BffDeps) {
  void app.register(async (scope) => {
    // The signature covers the exact bytes: it is computed as they stream in (a request without a
    // well-formed one is refused before its body is read, a body past the cap as soon as it is),
    // and JSON is parsed only after the check.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request, payload, done) => {
      const signature = request.headers['x-signature'];
      if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return done(badSignature());
      const hmac = createHmac('sha256', config.webhookSecret);
      const chunks: Buffer[] = [];
      let size = 0;
      let finished = false;
      const finish = (error: Error | null, body?: Buffer) => {
        if (finished) return;
        finished = true;
        done(error, body);
      };
      payload.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > WEBHOOK_BODY_LIMIT) {
          payload.pause();
          return finish(webhookTooLarge());
        }
        hmac.update(chunk);
        chunks.push(chunk);
      });
      payload.on('end', () => {
        const valid = timingSafeEqual(hmac.digest(), Buffer.from(signature, 'hex'));
        finish(valid ? null : badSignature(), valid ? Buffer.concat(chunks) : undefined);
      });
      payload.on('error', (error) => finish(error));
    });

    const verified = (request: FastifyRequest) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw badSignature();
      // Signed with our secret: the service (or whoever holds the secret), not anonymous traffic.
      openRoutes.trust(request);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw validationError('The webhook body is not JSON.', 'webhook.invalid');
      }
      return { body, json, hash: createHash('sha256').update(body).digest('hex') };
    };

    scope.post('/webhooks/verification', webhookRoute, async (request, reply) => {
      const { body, json, hash } = verified(request);
      const event = verificationEventSchema.safeParse(json);
      if (!event.success) throw validationError('Not a verification event.', 'webhook.invalid');
      if (!timestampInWindow(event.data.timestamp, config.webhookMaxAgeMs)) throw staleWebhook();
      const target = sync.resourceOf(event.data.resource);
      // An erased verification stays erased: its events are answered (the sender stops) and dropped.
      if (target && (await store.wasErased(target.verificationId)))
        return reply.code(200).send({ received: true, duplicate: false, erased: true });
      const stored = await store.recordEvent({
        kind: 'verification',
        eventName: event.data.eventName,
        rawBody: body.toString('utf8'),
        bodyHash: hash,
        verificationId: target?.verificationId ?? null,
        creditCheckId: null,
      });
      if (!stored.duplicate) {
        sync.schedule({
          event: stored.event,
          verificationId: target?.verificationId ?? null,
          creditCheckId: null,
        });
      }
      return reply.code(200).send({ received: true, duplicate: stored.duplicate });
    });

    scope.post('/webhooks/credit-check', webhookRoute, async (request, reply) => {
      const { body, json, hash } = verified(request);
      const event = creditCheckResultEventSchema.safeParse(json);
      if (!event.success) throw validationError('Not a credit-check result.', 'webhook.invalid');
      // The hosted shape has no signed time; the embedded service's has, and it is held to the window.
      const { timestamp } = event.data;
      if (timestamp !== undefined && !timestampInWindow(timestamp, config.webhookMaxAgeMs))
        throw staleWebhook();
      const stored = await store.recordEvent({
        kind: 'credit-check',
        eventName: event.data.eventName,
        rawBody: body.toString('utf8'),
        bodyHash: hash,
        verificationId: null,
        creditCheckId: event.data.id,
      });
      if (!stored.duplicate)
        sync.schedule({ event: stored.event, verificationId: null, creditCheckId: event.data.id });
      return reply.code(200).send({ received: true, duplicate: stored.duplicate });
    });
  });
}
