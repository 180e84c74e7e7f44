import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Below this, compressing costs more time than the saved bytes win back. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const compressibleType = /^(application\/(json|problem\+json)|text\/)/;

/** The encoding to answer in: br, then gzip, as the request's Accept-Encoding allows (q=0 refuses). */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

function addVary(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  if (!vary) void reply.header('vary', 'accept-encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary)))
    void reply.header('vary', `${String(vary)}, accept-encoding`);
}

/**
 * Compresses the BFF's own answers (JSON, text) above COMPRESS_THRESHOLD_BYTES, by the request's
 * Accept-Encoding. Streams are left alone: the static files come precompressed from the build,
 * media and the event stream are passed through. An answer that already has a Content-Encoding
 * is never compressed again.
 */
export function installReplyCompression(app: FastifyInstance) {
  // In callback form: most answers (small ones, streams) pass untouched, without a promise each.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (reply.hasHeader('content-encoding') || request.method === 'HEAD') return done(null, payload);
    if (Buffer.byteLength(payload) < COMPRESS_THRESHOLD_BYTES) return done(null, payload);
    if (!compressibleType.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
    addVary(reply);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    // Quality 5 / level 6: most of the gain at a fraction of the strongest settings' CPU.
    const compressed =
      encoding === 'br'
        ? brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : gz(payload, { level: 6 });
    compressed.then(
      (body) => {
        void reply.header('content-encoding', encoding);
        reply.removeHeader('content-length');
        done(null, body);
      },
      (error: Error) => done(error),
    );
  });
}
