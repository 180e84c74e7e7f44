import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '@/shared/file-format';
import { samplePath } from '../../../e2e/fixtures/samples';
import { checkBankStatement } from './inputs/bank-statement';
import { checkCustomDocument } from './inputs/custom-document';
import { checkDocumentPhoto } from './inputs/document-photo';
import { checkSelfiePhoto } from './inputs/selfie-photo';
import { checkSelfieVideo } from './inputs/selfie-video';
import type { StoredFile } from '@/checks/inputs/node/types';

const dir = mkdtempSync(join(tmpdir(), 'idv-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const store = (name: string, bytes: Uint8Array, format: FileFormat): StoredFile => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, filename: name, size: bytes.length, format };
};

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
};

/** A valid PNG header claiming 100000×100000 pixels with a tiny IDAT: a decompression bomb's shape. */
function hugePngHeader() {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const documentCtx = { type: 'national-id', country: 'AR', page: 'front', requires: [] } as const;

describe('hostile and broken inputs yield codes, never exceptions', () => {
  it('refuses a PNG header claiming 100000×100000 pixels without decoding it', async () => {
    const file = store('huge.png', hugePngHeader(), 'png');
    const document = await checkDocumentPhoto(file, documentCtx);
    expect(document.code).toBe('documentPhoto.unexpectedData');
    expect(document.message).toMatch(/100000×100000/);
    expect((await checkSelfiePhoto(file)).code).toBe('selfiePhoto.validationError');
    expect((await checkCustomDocument(file, { page: 'front', multiPageAllowed: false })).code).toBe(
      'documentPhoto.unexpectedData',
    );
  });

  it('refuses a truncated JPEG', async () => {
    const jpeg = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    const file = store('cut.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'jpeg');
    expect((await checkDocumentPhoto(file, documentCtx)).code).toBe('documentPhoto.unexpectedData');
    expect((await checkSelfiePhoto(file)).code).toBe('selfiePhoto.validationError');
  });

  it('refuses bytes that are no image at all', async () => {
    const file = store('junk.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]), 'jpeg');
    expect((await checkDocumentPhoto(file, documentCtx)).code).toBe('documentPhoto.unexpectedData');
  });

  it('refuses a small image with smallImageSize', async () => {
    const png = await sharp({ create: { width: 500, height: 400, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const outcome = await checkDocumentPhoto(store('small.png', png, 'png'), documentCtx);
    expect(outcome).toMatchObject({
      code: 'documentPhoto.smallImageSize',
      facts: { width: 500, height: 400 },
    });
  });

  it('answers a corrupt PDF with a clear code', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage().drawText('SPECIMEN');
    const bytes = await pdf.save();
    const corrupt = Buffer.concat([Buffer.from(bytes.subarray(0, 20)), Buffer.alloc(500, 0x41)]);
    const file = store('corrupt.pdf', corrupt, 'pdf');
    const bank = await checkBankStatement(file, { country: 'BR', institutionId: 'x' });
    expect(bank.code).toBe('bankDocument.statementNotSupported');
    expect(bank.message).toMatch(/PDF/);
    const custom = await checkCustomDocument(file, { page: 'multi', multiPageAllowed: true });
    expect(custom.code).toBe('documentPhoto.unexpectedData');
  });

  it('answers a truncated or empty video with conversionFailed', async () => {
    // ftyp + a moov box whose size runs past the end of the file.
    const ftyp = Buffer.from('00000018667479706d703432000000006d70343269736f6d', 'hex');
    const moov = Buffer.alloc(16);
    moov.writeUInt32BE(5000, 0);
    moov.write('moov', 4, 'latin1');
    const truncated = store('cut.mp4', Buffer.concat([ftyp, moov]), 'mp4');
    const outcome = await checkSelfieVideo(truncated);
    expect(outcome.code).toBe('voiceVideo.conversionFailed');
    expect(outcome.message).toMatch(/moov/);
    const empty = store('empty.webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), 'webm');
    expect((await checkSelfieVideo(empty)).code).toBe('voiceVideo.conversionFailed');
    const missing = { ...truncated, path: join(dir, 'does-not-exist.mp4') };
    expect((await checkSelfieVideo(missing)).code).toBe('voiceVideo.conversionFailed');
  });

  it('answers every committed clean video cut short with conversionFailed', async () => {
    for (const [name, format] of [
      ['liveness-streamed.webm', 'webm'],
      ['liveness-fragmented.mp4', 'mp4'],
      ['liveness.mkv', 'mkv'],
      ['liveness.mov', 'mov'],
      ['liveness.3gp', '3gp'],
    ] as const) {
      const whole = readFileSync(samplePath(name));
      expect((await checkSelfieVideo(store(`whole-${name}`, whole, format))).code, name).toBeNull();
      const cut = store(`cut-${name}`, whole.subarray(0, Math.floor(whole.length * 0.7)), format);
      expect((await checkSelfieVideo(cut)).code, name).toBe('voiceVideo.conversionFailed');
    }
  });

  it('states the duration of a whole recording', async () => {
    const outcome = await checkSelfieVideo(store('d.mp4', readFileSync(samplePath('liveness.mp4')), 'mp4'));
    expect(outcome.facts.durationSeconds).toBeCloseTo(3, 0);
  });
});
