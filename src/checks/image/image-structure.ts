/**
 * The one walker of JPEG segments and PNG chunks, for the wizard (a file's bytes in memory) and the
 * service (a stored upload read through positioned reads, never whole). A walk is a generator that
 * asks for the bytes it needs (`{ need }`), is answered with them (or null past the file's end),
 * and hands out each segment or chunk (`{ found }`) from its header alone; the caller reads a
 * payload only when it wants it, and may stop the walk at any step (a file of a million tiny
 * chunks is never listed whole).
 */

/** Bytes a walk needs next: `length` bytes from offset `at`. */
export interface ByteNeed {
  need: { at: number; length: number };
}
export interface Found<T> {
  found: T;
}
export type Walk<T, End = void> = Generator<ByteNeed | Found<T>, End, Uint8Array | null | undefined>;

export interface JpegSegment {
  marker: number;
  /** Offset of the marker's 0xFF. */
  start: number;
  /** Offset of the payload (past the two length bytes). */
  payloadStart: number;
  /** Offset just past the segment. */
  end: number;
}

export interface PngChunk {
  type: string;
  /** Offset of the chunk's length field. */
  start: number;
  dataStart: number;
  dataEnd: number;
  /** Offset just past the CRC. */
  end: number;
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

export const isJpegHead = (head: Uint8Array) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
export const isPngHead = (head: Uint8Array) =>
  head.length >= 8 && PNG_SIGNATURE.every((b, i) => head[i] === b);

/** SOFn markers (C4 DHT, C8 JPG and CC DAC are not frames), and the progressive ones. */
export const isJpegFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
export const isProgressiveJpegFrame = (marker: number) =>
  marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce;

/**
 * The segments of a JPEG of `size` bytes before its first scan; the walk's result is the offset
 * of the SOS marker, or -1 when the file ends, breaks or stops (EOI) before one.
 */
export function* walkJpeg(size: number): Walk<JpegSegment, number> {
  let at = 2;
  while (at + 4 <= size) {
    const header = yield { need: { at, length: 4 } };
    if (!header || header.length < 4 || header[0] !== 0xff) return -1;
    const marker = header[1];
    // Fill bytes, and markers without a length (TEM, RSTn).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda) return at;
    if (marker === 0xd9) return -1;
    const length = (header[2] << 8) | header[3];
    const end = at + 2 + length;
    if (length < 2 || end > size) return -1;
    yield { found: { marker, start: at, payloadStart: at + 4, end } };
    at = end;
  }
  return -1;
}

export interface JpegScan {
  /** Offset of the SOS marker's 0xFF. */
  start: number;
  /** Components the scan codes (Ns). */
  components: number;
}

/** Entropy-coded data is searched for markers in pieces of this many bytes. */
const SCAN_PIECE_BYTES = 64 * 1024;

/**
 * The scans of a JPEG of `size` bytes from its first SOS at `firstScan` (walkJpeg's result), each
 * from its header: the entropy-coded data between them is searched for the next marker as libjpeg
 * finds it (a 0xFF not followed by a stuffed 0x00, a fill 0xFF or a restart marker; stray bytes
 * between segments skipped), so a scan the decoder will read is never missed. Ends at EOI, at the
 * file's end or at a segment that runs past it.
 */
export function* walkJpegScans(size: number, firstScan: number): Walk<JpegScan> {
  let at = firstScan;
  while (at + 2 <= size) {
    const marker = (yield { need: { at, length: 2 } })?.[1];
    if (marker === undefined || marker === 0xd9) return;
    let end = at + 2;
    if (marker !== 0x01 && !(marker >= 0xd0 && marker <= 0xd7)) {
      const header = yield { need: { at, length: Math.min(5, size - at) } };
      if (!header || header.length < 4) return;
      end = at + 2 + ((header[2] << 8) | header[3]);
      if (end > size || end < at + 4) return;
      if (marker === 0xda) yield { found: { start: at, components: header[4] ?? 0 } };
    }
    // The next marker: past entropy-coded data after a scan, past stray bytes after anything else.
    let next = -1;
    for (let from = end; next === -1 && from < size;) {
      const piece = yield { need: { at: from, length: Math.min(SCAN_PIECE_BYTES, size - from) } };
      if (!piece) return;
      let i = piece.indexOf(0xff);
      while (i !== -1 && i + 1 < piece.length) {
        const following = piece[i + 1];
        if (following !== 0x00 && following !== 0xff && !(following >= 0xd0 && following <= 0xd7)) break;
        i = piece.indexOf(0xff, i + 1);
      }
      if (i !== -1 && i + 1 < piece.length) next = from + i;
      // A 0xFF ending the piece is read again as the next piece's first byte.
      else from += i === piece.length - 1 ? piece.length - 1 : piece.length;
      if (piece.length === 1) return;
    }
    if (next === -1) return;
    at = next;
  }
}

const chunkType = (bytes: Uint8Array) => String.fromCharCode(bytes[4], bytes[5], bytes[6], bytes[7]);

/** The chunks of a PNG of `size` bytes, up to IEND or the first that runs past the file's end. */
export function* walkPng(size: number): Walk<PngChunk> {
  let at = 8;
  while (at + 12 <= size) {
    const header = yield { need: { at, length: 8 } };
    if (!header || header.length < 8) return;
    const length = ((header[0] << 24) | (header[1] << 16) | (header[2] << 8) | header[3]) >>> 0;
    const end = at + 12 + length;
    if (end > size) return;
    const type = chunkType(header);
    yield { found: { type, start: at, dataStart: at + 8, dataEnd: at + 8 + length, end } };
    if (type === 'IEND') return;
    at = end;
  }
}

/**
 * Runs a walk over bytes in memory: `visit` gets each segment or chunk and returns false to stop.
 * The walk's result, or undefined when it was stopped.
 */
export function walkBytes<T, End>(
  walk: Walk<T, End>,
  bytes: Uint8Array,
  visit: (item: T) => boolean | void,
): End | undefined {
  let step = walk.next();
  while (!step.done) {
    const value = step.value;
    if ('need' in value) {
      const { at, length } = value.need;
      step = walk.next(at + length <= bytes.length ? bytes.subarray(at, at + length) : null);
    } else if (visit(value.found) === false) {
      walk.return(undefined as End);
      return undefined;
    } else {
      step = walk.next();
    }
  }
  return step.value;
}

/** The same over an asynchronous positioned read (a file on disk). */
export async function walkAsync<T, End>(
  walk: Walk<T, End>,
  read: (at: number, length: number) => Promise<Uint8Array | null>,
  visit: (item: T) => Promise<boolean | void> | boolean | void,
): Promise<End | undefined> {
  let step = walk.next();
  while (!step.done) {
    const value = step.value;
    if ('need' in value) {
      step = walk.next(await read(value.need.at, value.need.length));
    } else if ((await visit(value.found)) === false) {
      walk.return(undefined as End);
      return undefined;
    } else {
      step = walk.next();
    }
  }
  return step.value;
}

/** Every segment of a JPEG in memory before its scan, and the scan's offset (-1: not reached). */
export function jpegSegments(bytes: Uint8Array): { segments: JpegSegment[]; scanStart: number } {
  const segments: JpegSegment[] = [];
  const scanStart = walkBytes(walkJpeg(bytes.length), bytes, (segment) => {
    segments.push(segment);
  });
  return { segments, scanStart: scanStart ?? -1 };
}

/** Every whole chunk of a PNG in memory. */
export function pngChunks(bytes: Uint8Array): PngChunk[] {
  const chunks: PngChunk[] = [];
  walkBytes(walkPng(bytes.length), bytes, (chunk) => {
    chunks.push(chunk);
  });
  return chunks;
}
