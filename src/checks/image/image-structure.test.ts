import { describe, expect, it } from 'vitest';
import {
  jpegSegments,
  pngChunks,
  PNG_SIGNATURE,
  walkAsync,
  walkBytes,
  walkJpeg,
  walkJpegScans,
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

describe('the scans of a JPEG', () => {
  const sos = (components: number) =>
    segment(0xda, [components, ...Array<number>(components * 2 + 3).fill(0)]);
  const piece = 64 * 1024;
  // After the frame: a scan of 3 components whose data holds a stuffed 0xFF, a restart marker and
  // a fill byte; a DHT and stray bytes; a scan of one component whose data puts a stuffed 0xFF,
  // then the next scan's marker, astride the walk's 64 KB pieces; EOI, and a scan after it.
  const before = [
    ...Array.from(jpeg.subarray(0, jpeg.length - 7)),
    ...sos(3),
    ...[1, 0xff, 0, 2, 0xff, 0xd3, 3, 0xff],
    ...segment(0xc4, [0, 1]),
    ...[7, 7],
    ...sos(1),
  ];
  // The second scan's data is searched in pieces from its start; the first ends on a stuffed
  // 0xFF, the next (read from that byte again) on the third scan's 0xFF.
  const data = new Array<number>(2 * piece - 1).fill(0);
  data[piece - 1] = 0xff;
  data[2 * piece - 2] = 0xff;
  const third = before.length + 2 * piece - 2;
  const all = new Uint8Array([...before, ...data, ...sos(1).slice(1), 5, 0xff, 0xd9, ...sos(1)]);

  const scansOf = (b: Uint8Array) => {
    const found: { start: number; components: number }[] = [];
    walkBytes(walkJpegScans(b.length, jpegSegments(b).scanStart), b, (scan) => {
      found.push(scan);
    });
    return found;
  };

  it('finds every scan as the decoder does, and none after EOI', () => {
    const found = scansOf(all);
    expect(found.map((s) => s.components)).toEqual([3, 1, 1]);
    expect(found[2].start).toBe(third);
    for (const { start } of found) expect([all[start], all[start + 1]]).toEqual([0xff, 0xda]);
  });

  it('stops at the end of the bytes, at a scan header cut off, or where the caller stops it', async () => {
    expect(scansOf(all.subarray(0, third + 3)).length).toBe(2);
    const lengths: number[] = [];
    await walkAsync(
      walkJpegScans(all.length, jpegSegments(all).scanStart),
      async (at, length) => {
        lengths.push(length);
        return all.subarray(at, at + length);
      },
      () => false,
    );
    // Stopped at the first scan's header: nothing of its data was read.
    expect(Math.max(...lengths)).toBeLessThanOrEqual(5);
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
