import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocumentPhoto } from './inputs/document-photo';
import {
  imageMetadataBytes,
  imageStructure,
  MAX_BUFFERED_DECODE_BYTES,
  MAX_IMAGE_METADATA_BYTES,
  MAX_JPEG_SCANS,
  PNG_DECODE_ROWS,
} from '@/checks/image/node/image-metadata';
import { noisePhoto } from '../../../e2e/fixtures/noise-photo';
import { scanBomb } from '../../../e2e/fixtures/scan-bomb';

const dir = mkdtempSync(join(tmpdir(), 'idv-image-meta-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MB = 1024 * 1024;

const write = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
};

/** A real PNG with `extra` chunks inserted after IHDR. */
async function pngWith(extra: Buffer[]) {
  const png = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#3a7bd5' } })
    .png()
    .toBuffer();
  const afterIhdr = 8 + 12 + 13;
  return Buffer.concat([png.subarray(0, afterIhdr), ...extra, png.subarray(afterIhdr)]);
}

const rssMb = () => process.memoryUsage().rss / MB;
const documentCtx = { type: 'national-id', country: 'AR', page: 'front', requires: [] } as const;

describe('image metadata is measured before sharp reads it', () => {
  it('refuses a PNG with 40 MB of text chunks without turning them into strings', async () => {
    const text = Buffer.concat([Buffer.from('comment\0'), Buffer.alloc(MB - 8, 0x41)]);
    const path = write('texty.png', await pngWith(Array.from({ length: 40 }, () => chunk('tEXt', text))));
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5);
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        checkDocumentPhoto({ path, filename: 'texty.png', size: 40 * MB, format: 'png' }, documentCtx),
      ),
    );
    clearInterval(sampler);
    for (const outcome of outcomes) {
      expect(outcome.code).toBe('documentPhoto.unexpectedData');
      expect(outcome.message).toMatch(/metadata/);
    }
    expect(peak - before).toBeLessThan(64);
  });

  it('counts compressed text and profiles as they inflate', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * MB, 0x41));
    const ztxt = chunk('zTXt', Buffer.concat([Buffer.from('comment\0\0'), bomb]));
    const path = write('ztxt.png', await pngWith([ztxt]));
    expect(await imageMetadataBytes(path)).toBeGreaterThan(MAX_IMAGE_METADATA_BYTES);
    const itxt = chunk('iTXt', Buffer.concat([Buffer.from('comment\0\x01\0en\0c\0'), bomb]));
    expect(await imageMetadataBytes(write('itxt.png', await pngWith([itxt])))).toBeGreaterThan(
      MAX_IMAGE_METADATA_BYTES,
    );
    // An ordinary marker chunk is small and still read.
    const marker = chunk('tEXt', Buffer.from('idv-scenario\0documentPhoto.blurryText'));
    expect(await imageMetadataBytes(write('marker.png', await pngWith([marker])))).toBeLessThan(100);
  });

  it('counts JPEG APPn and COM segments before the scan', async () => {
    const jpeg = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0xff, 0xff]), Buffer.alloc(0xfffd, 0x41)]);
    const many = Buffer.concat([jpeg.subarray(0, 2), ...Array<Buffer>(40).fill(com), jpeg.subarray(2)]);
    const path = write('comments.jpg', many);
    expect(await imageMetadataBytes(path)).toBeGreaterThan(MAX_IMAGE_METADATA_BYTES);
    const outcome = await checkDocumentPhoto(
      { path, filename: 'comments.jpg', size: many.length, format: 'jpeg' },
      documentCtx,
    );
    expect(outcome.code).toBe('documentPhoto.unexpectedData');
    expect(await imageMetadataBytes(write('plain.jpg', jpeg))).toBeLessThan(MAX_IMAGE_METADATA_BYTES);
  });
});

describe('what a decode must buffer is read from the header', () => {
  it("refuses issue 21's progressive JPEG bomb before any decode, and keeps smaller progressive photos", async () => {
    const bomb = await sharp({
      create: { width: 10000, height: 9999, channels: 3, background: { r: 120, g: 80, b: 40 } },
    })
      .jpeg({ progressive: true, quality: 20, chromaSubsampling: '4:4:4' })
      .toBuffer();
    const path = write('bomb.jpg', bomb);
    const structure = await imageStructure(path);
    expect(structure.progressive).toBe(true);
    // 1250 × 1250 blocks (10000 / 8, 9999 / 8 rounded up) × 3 components × 128 bytes.
    expect(structure.bufferedDecodeBytes).toBe(1250 * 1250 * 3 * 128);
    const before = rssMb();
    const outcomes = await Promise.all(
      Array.from({ length: 3 }, () =>
        checkDocumentPhoto({ path, filename: 'bomb.jpg', size: bomb.length, format: 'jpeg' }, documentCtx),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome.code).toBe('documentPhoto.unexpectedData');
      expect(outcome.message).toMatch(/needs 573 MB, over the 64 MB limit/);
    }
    expect(rssMb() - before).toBeLessThan(64);

    // A 12 MP 4:2:0 progressive photo buffers 36 MB: read as usual.
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#a0603a' } })
      .jpeg({ progressive: true, quality: 80 })
      .toBuffer();
    const photoStructure = await imageStructure(write('photo.jpg', photo));
    // Blocks are rounded up to whole MCUs (16 × 16 px at 4:2:0): 3000 rows are 188 MCUs.
    expect(photoStructure.bufferedDecodeBytes).toBe(500 * 376 * 128 + 2 * 250 * 188 * 128);
    expect(photoStructure.bufferedDecodeBytes).toBeLessThan(MAX_BUFFERED_DECODE_BYTES);
    // Baseline JPEGs are decoded row by row at the shrunk scale: nothing to buffer.
    const baseline = await sharp({ create: { width: 10000, height: 9999, channels: 3, background: '#fff' } })
      .jpeg({ quality: 20 })
      .toBuffer();
    expect((await imageStructure(write('baseline.jpg', baseline))).bufferedDecodeBytes).toBe(0);
  }, 60_000);

  it('counts an interlaced PNG whole', async () => {
    const png = await sharp({ create: { width: 6000, height: 6000, channels: 4, background: '#3a7bd580' } })
      .png({ progressive: true, compressionLevel: 9 })
      .toBuffer();
    const path = write('adam7.png', png);
    expect((await imageStructure(path)).bufferedDecodeBytes).toBe(6000 * 6000 * 4);
    const outcome = await checkDocumentPhoto(
      { path, filename: 'adam7.png', size: png.length, format: 'png' },
      documentCtx,
    );
    expect(outcome.code).toBe('documentPhoto.unexpectedData');
    expect(outcome.message).toMatch(/progressive or interlaced/);
  }, 60_000);

  it("counts a JPEG's scans before any decode and refuses issue 34's scan bomb", async () => {
    const bomb = scanBomb(50_000);
    const path = write('scans.jpg', bomb);
    const structure = await imageStructure(path);
    // Under the bound on what a decode buffers; only the scans tell it from a photo.
    expect(structure.bufferedDecodeBytes).toBeLessThan(MAX_BUFFERED_DECODE_BYTES);
    // Counting stopped just past the bound.
    expect(structure.scans).toBe(MAX_JPEG_SCANS + 1);
    const outcome = await checkDocumentPhoto(
      { path, filename: 'scans.jpg', size: bomb.length, format: 'jpeg' },
      documentCtx,
    );
    expect(outcome.code).toBe('documentPhoto.unexpectedData');
    expect(outcome.message).toMatch(/more than 100 scans/);

    // sharp's (mozjpeg's) progressive scripts: 10 scans by default, 8–11 with mozjpeg's optimised ones.
    const source = sharp(await noisePhoto(900, 700));
    const progressive = await source.clone().jpeg({ progressive: true }).toBuffer();
    expect((await imageStructure(write('progressive.jpg', progressive))).scans).toBe(10);
    const mozjpeg = await source.clone().jpeg({ mozjpeg: true }).toBuffer();
    expect((await imageStructure(write('mozjpeg.jpg', mozjpeg))).scans).toBeLessThanOrEqual(12);
    const baseline = await source.clone().jpeg().toBuffer();
    expect(await imageStructure(write('one-scan.jpg', baseline))).toMatchObject({
      scans: 1,
      bufferedDecodeBytes: 0,
    });
  });

  it('counts the coefficients of a sequential JPEG coded one component a scan, which libjpeg buffers', async () => {
    // 4000 × 4000, 3 components at 1×1: three scans of one component each, every block '0' (DC
    // unchanged) and '0' (end of block) — 96 MB of coefficients held until the last scan.
    const side = 4000;
    const blocks = (side / 8) ** 2;
    const segment = (marker: number, payload: number[]) =>
      Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload]);
    const table = (tableClass: number) => [tableClass << 4, 1, ...Array<number>(15).fill(0), 0];
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      segment(0xdb, [0, ...Array<number>(64).fill(1)]),
      segment(0xc0, [
        8,
        side >> 8,
        side & 0xff,
        side >> 8,
        side & 0xff,
        3,
        1,
        0x11,
        0,
        2,
        0x11,
        0,
        3,
        0x11,
        0,
      ]),
      segment(0xc4, [...table(0), ...table(1)]),
      ...[1, 2, 3].flatMap((component) => [
        segment(0xda, [1, component, 0x00, 0, 63, 0]),
        Buffer.alloc(blocks / 4),
      ]),
      Buffer.from([0xff, 0xd9]),
    ]);
    const path = write('component-scans.jpg', jpeg);
    expect(await imageStructure(path)).toMatchObject({
      progressive: false,
      scans: 3,
      bufferedDecodeBytes: 3 * blocks * 128,
    });
    const outcome = await checkDocumentPhoto(
      { path, filename: 'component-scans.jpg', size: jpeg.length, format: 'jpeg' },
      documentCtx,
    );
    expect(outcome.message).toMatch(/needs 92 MB, over the 64 MB limit/);
  });

  it("bounds a plain PNG's decode by the rows of its width, depth and channels that the shrink holds", async () => {
    // Issue 34 item 6: three 100 MP 16-bit RGB PNGs of 0.9 MB took the service from 540 to 880 MB,
    // weighed as baseline photos. A header (IHDR, one small IDAT) is all the check reads.
    const pngHeader = (width: number, height: number, depth: number, colour: number) => {
      const ihdr = Buffer.alloc(13);
      ihdr.writeUInt32BE(width, 0);
      ihdr.writeUInt32BE(height, 4);
      ihdr[8] = depth;
      ihdr[9] = colour;
      return Buffer.concat([
        Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
        chunk('IHDR', ihdr),
        chunk('IDAT', deflateSync(Buffer.alloc(1024))),
        chunk('IEND', Buffer.alloc(0)),
      ]);
    };
    const deep = pngHeader(10000, 10000, 16, 2);
    const path = write('deep.png', deep);
    expect(await imageStructure(path)).toMatchObject({
      progressive: false,
      bufferedDecodeBytes: 10000 * 3 * 2 * PNG_DECODE_ROWS,
    });
    const outcome = await checkDocumentPhoto(
      { path, filename: 'deep.png', size: deep.length, format: 'png' },
      documentCtx,
    );
    expect(outcome.code).toBe('documentPhoto.unexpectedData');
    expect(outcome.message).toMatch(/needs 118 MB, over the 64 MB limit/);
    // The same pixels in 8 bits, and a palette (decoded as RGBA), are weighed and read.
    const rgb = await imageStructure(write('rgb.png', pngHeader(10000, 10000, 8, 2)));
    expect(rgb.bufferedDecodeBytes).toBe(10000 * 3 * PNG_DECODE_ROWS);
    expect(rgb.bufferedDecodeBytes).toBeLessThan(MAX_BUFFERED_DECODE_BYTES);
    const palette = await imageStructure(write('palette.png', pngHeader(4000, 3000, 8, 3)));
    expect(palette.bufferedDecodeBytes).toBe(4000 * 4 * PNG_DECODE_ROWS);
  });
});
