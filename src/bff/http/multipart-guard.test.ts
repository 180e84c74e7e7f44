import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '@/shared/limits';
import { BffHttpError } from '../errors';
import { makeImage, toBlob } from '../testing/harness';
import { MultipartGuard } from './multipart-guard';

/** A real multipart body as the browser's FormData produces it. */
async function formBody(parts: { name: string; filename?: string; data: Buffer | string }[]) {
  const form = new FormData();
  for (const part of parts) {
    if (part.filename) form.append(part.name, toBlob(part.data), part.filename);
    else form.append(part.name, String(part.data));
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

/** Runs a body through the guard in chunks of the given sizes; what came out and the error, if any. */
async function run(body: Buffer | Iterable<Buffer>, contentType: string, chunkSize: number) {
  const guard = new MultipartGuard(MultipartGuard.boundaryOf(contentType)!);
  const out: Buffer[] = [];
  const chunks = Buffer.isBuffer(body)
    ? (function* () {
        for (let i = 0; i < body.length; i += chunkSize) yield body.subarray(i, i + chunkSize);
      })()
    : body;
  let error: unknown = null;
  try {
    await pipeline(
      Readable.from(chunks),
      guard,
      new Writable({
        write(chunk: Buffer, _enc, cb) {
          out.push(chunk);
          cb();
        },
      }),
    );
  } catch (e) {
    error = e;
  }
  return { out: Buffer.concat(out), error: error as BffHttpError | null, guard };
}

describe('MultipartGuard', () => {
  it('keeps the inputs field as sent, whatever the chunking, and nothing of the files', async () => {
    const inputs = JSON.stringify([{ inputType: 'selfie-photo', data: { filename: 'sé.jpg' } }]);
    const { body, contentType } = await formBody([
      { name: 'inputs', data: inputs },
      { name: 'selfie', filename: 'sé.jpg', data: await makeImage(1, 64, 64) },
    ]);
    for (const chunkSize of [1, 7, 64 * 1024]) {
      const { error, guard } = await run(body, contentType, chunkSize);
      expect(error).toBeNull();
      expect(guard.inputsField).toBe(inputs);
    }
    const noInputs = await formBody([{ name: 'other', data: 'x' }]);
    expect((await run(noInputs.body, noInputs.contentType, 16)).guard.inputsField).toBeNull();
  });

  it('passes a valid form through byte for byte, whatever the chunking', async () => {
    const jpeg = await makeImage(1, 640, 640);
    const { body, contentType } = await formBody([
      { name: 'inputs', data: JSON.stringify([{ inputType: 'selfie-photo', data: { filename: 'a.jpg' } }]) },
      { name: 'document', filename: 'front.jpg', data: jpeg },
      { name: 'selfie', filename: 'a.jpg', data: jpeg },
      { name: 'unrelated', filename: 'notes.txt', data: 'plain text is not checked in unknown fields' },
    ]);
    for (const size of [1, 7, 70, 4096, body.length]) {
      const { out, error } = await run(body, contentType, size);
      expect(error).toBeNull();
      expect(out.equals(body)).toBe(true);
    }
  });

  it('refuses a file whose bytes are not an allowed format for its field', async () => {
    const { body, contentType } = await formBody([
      { name: 'inputs', data: '[]' },
      {
        name: 'selfie',
        filename: 'selfie.jpg',
        data: Buffer.from('%PDF-1.7 not an image at all '.repeat(100)),
      },
    ]);
    for (const size of [3, 1000, body.length]) {
      const { error } = await run(body, contentType, size);
      expect(error?.statusCode).toBe(415);
      expect(error?.body.code).toBe('unsupported_format');
    }
  });

  it('accepts a PDF where PDFs are allowed, and refuses an empty file', async () => {
    const pdf = await formBody([{ name: 'custom-document', filename: 'p.pdf', data: '%PDF-1.4\n1 0 obj\n' }]);
    expect((await run(pdf.body, pdf.contentType, 5)).error).toBeNull();
    const empty = await formBody([{ name: 'document', filename: 'e.jpg', data: Buffer.alloc(0) }]);
    expect((await run(empty.body, empty.contentType, 5)).error?.statusCode).toBe(415);
  });

  it('stops a file over 50 MB as it streams, without holding it', async () => {
    const boundary = 'guard-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const jpegStart = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    const block = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const body = function* () {
      yield head;
      yield jpegStart;
      for (let i = 0; i < 60; i++) {
        sent++;
        yield block;
      }
    };
    const { out, error } = await run(body(), `multipart/form-data; boundary=${boundary}`, 0);
    expect(error?.statusCode).toBe(413);
    expect(error?.body.code).toBe('file_too_large');
    expect(out.length).toBeLessThanOrEqual(MAX_FILE_BYTES + head.length + jpegStart.length);
    expect(sent).toBeLessThan(60);
  });

  it('counts files against the per-request limit', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const { body, contentType } = await formBody(
      Array.from({ length: 17 }, (_, i) => ({ name: 'document', filename: `${i}.jpg`, data: jpeg })),
    );
    const { error } = await run(body, contentType, 100);
    expect(error?.statusCode).toBe(413);
    expect(error?.body.code).toBe('too_many_parts');
  });

  it('reads the boundary from quoted and plain content types', () => {
    expect(MultipartGuard.boundaryOf('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(MultipartGuard.boundaryOf('multipart/form-data; charset=utf-8; boundary=----x1')).toBe('----x1');
    expect(MultipartGuard.boundaryOf('multipart/form-data')).toBeNull();
  });
});
