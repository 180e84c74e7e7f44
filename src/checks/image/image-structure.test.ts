import { describe, expect, it } from 'vitest';
import {
  jpegSegments,
  pngChunks,
  PNG_SIGNATURE,
  walkAsync,
  walkBytes,
  walkJpeg,
  walkPng,
} from './image-structure';

const segment = (marker: number, payload: number[]) => [
  0xff,
  marker,
  (payload.length + 2) >> 8,
  (payload.length + 2) & 0xff,
  ...payload,
];
const chunk = (type: string, data: number[]) => [
  0,
  0,
  data.length >> 8,
  data.length & 0xff,
  ...[...type].map((c) => c.charCodeAt(0)),
  ...data,
  0,
  0,
  0,
  0,
];

// SOI, APP0, a comment, a fill byte, a baseline frame (8×16, 3 components), then the scan.
const jpeg = new Uint8Array([
  0xff,
  0xd8,
  ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0]),
  ...segment(0xfe, [0x68, 0x69]),
  0xff,
  ...segment(0xc0, [8, 0, 16, 0, 8, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]),
  0xff,
  0xda,
  0,
  8,
  1,
  2,
  3,
]);

const read = (bytes: Uint8Array) => async (at: number, length: number) =>
  at + length <= bytes.length ? bytes.subarray(at, at + length) : null;

describe('the JPEG walk', () => {
  it('lists the segments before the scan from their headers, in memory and through positioned reads alike', async () => {
    const { segments, scanStart } = jpegSegments(jpeg);
    expect(segments.map((s) => s.marker)).toEqual([0xe0, 0xfe, 0xc0]);
    expect(jpeg[scanStart + 1]).toBe(0xda);
    const comment = segments[1];
    expect(Array.from(jpeg.subarray(comment.payloadStart, comment.end))).toEqual([0x68, 0x69]);

    const seen: number[] = [];
    const scan = await walkAsync(walkJpeg(jpeg.length), read(jpeg), (s) => {
      seen.push(s.marker);
    });
    expect(seen).toEqual([0xe0, 0xfe, 0xc0]);
    expect(scan).toBe(scanStart);
  });

  it('reports no scan when the bytes end inside a segment or before the scan', () => {
    expect(jpegSegments(jpeg.subarray(0, 20)).scanStart).toBe(-1);
    const cut = jpeg.subarray(0, jpeg.length - 6);
    const { segments, scanStart } = jpegSegments(cut);
    expect(scanStart).toBe(-1);
    expect(segments.map((s) => s.marker)).toEqual([0xe0, 0xfe, 0xc0]);
  });

  it('stops where the caller stops it', () => {
    const seen: number[] = [];
    const result = walkBytes(walkJpeg(jpeg.length), jpeg, (s) => {
      seen.push(s.marker);
      return s.marker !== 0xe0;
    });
    expect(seen).toEqual([0xe0]);
    expect(result).toBeUndefined();
  });
});

describe('the PNG walk', () => {
  const png = new Uint8Array([
    ...PNG_SIGNATURE,
    ...chunk('IHDR', [0, 0, 0, 4, 0, 0, 0, 2, 8, 2, 0, 0, 0]),
    ...chunk('tEXt', [0x6b, 0, 0x76]),
    ...chunk('IEND', []),
  ]);

  it('lists the chunks up to IEND', () => {
    expect(pngChunks(png).map((c) => c.type)).toEqual(['IHDR', 'tEXt', 'IEND']);
    const text = pngChunks(png)[1];
    expect(Array.from(png.subarray(text.dataStart, text.dataEnd))).toEqual([0x6b, 0, 0x76]);
  });

  it('drops a chunk that runs past the end of the file', () => {
    expect(pngChunks(png.subarray(0, png.length - 14)).map((c) => c.type)).toEqual(['IHDR']);
  });

  it('asks only for the headers of the chunks it reaches before the caller stops it', async () => {
    // 100,000 empty text chunks: a caller that stops after three has read three headers.
    const many = new Uint8Array(8 + 100_000 * 12);
    many.set(PNG_SIGNATURE);
    for (let at = 8; at < many.length; at += 12) many.set([0, 0, 0, 0, 0x74, 0x45, 0x58, 0x74], at);
    let reads = 0;
    let seen = 0;
    await walkAsync(
      walkPng(many.length),
      async (at, length) => {
        reads++;
        return many.subarray(at, at + length);
      },
      () => ++seen < 3,
    );
    expect(seen).toBe(3);
    expect(reads).toBe(3);
  });
});
