import type { IncomingMessage } from 'node:http';

/**
 * Reads and drops what a client still sends after an early answer (a refusal before its body was
 * read), so that it sees the answer: a client still writing when the server closes gets a reset
 * instead, and `fetch` reports "fetch failed". Past `limit` bytes in all (counting `alreadyRead`)
 * the connection is cut. Resolves whether the body was read to its end.
 */
export function drainBody(raw: IncomingMessage, limit: number, alreadyRead = 0): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    raw.socket?.destroy();
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    let bytes = alreadyRead;
    // Whatever read the body before (a multipart parser) lets go of it.
    raw.unpipe();
    raw.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) {
        raw.socket?.destroy();
        resolve(false);
      }
    });
    raw.once('end', () => resolve(true));
    raw.once('close', () => resolve(raw.complete));
    raw.resume();
  });
}
