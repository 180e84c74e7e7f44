// Byte-level reading and editing of JPEG and PNG files. Pure (no DOM) so it runs the same in the
// page, in a worker and under Vitest. It exists so that files under the compression budget can be
// sent as they are (no re-encoding, scenario markers kept) minus their location data. The segments
// and chunks are found by the walker the service uses too (src/checks/image/image-structure.ts).

import {
  isJpegFrame,
  isJpegHead,
  isPngHead,
  jpegSegments,
  pngChunks,
  type JpegSegment,
} from '@/checks/image/image-structure';

export interface ImageHeader {
  format: 'jpeg' | 'png';
  /** Size as displayed, i.e. after the EXIF orientation is applied. */
  width: number;
  height: number;
  /** EXIF orientation 1–8 (1 when absent). */
  orientation: number;
}

const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
};
const TAG_ORIENTATION = 0x0112;
const TAG_GPS_IFD = 0x8825;
const EXIF_ID = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
const XMP_IDS = ['http://ns.adobe.com/xap/1.0/\0', 'http://ns.adobe.com/xmp/extension/\0'];

const startsWith = (bytes: Uint8Array, at: number, prefix: readonly number[]) =>
  prefix.every((b, i) => bytes[at + i] === b);
const latin1 = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
};
const utf8 = new TextDecoder('utf-8', { fatal: false });

const isJpeg = isJpegHead;
const isPng = isPngHead;

/** A TIFF structure (EXIF body) with its byte order; offsets are relative to `base`. */
class Tiff {
  readonly little: boolean;
  constructor(
    readonly bytes: Uint8Array,
    readonly base: number,
    readonly end: number,
  ) {
    this.little = bytes[base] === 0x49;
  }
  static at(bytes: Uint8Array, base: number, end: number): Tiff | null {
    if (end - base < 8) return null;
    const order = latin1(bytes.subarray(base, base + 2));
    if (order !== 'II' && order !== 'MM') return null;
    const tiff = new Tiff(bytes, base, end);
    return tiff.u16(2) === 42 ? tiff : null;
  }
  inRange(offset: number, length: number) {
    return offset >= 0 && this.base + offset + length <= this.end;
  }
  u16(offset: number) {
    const b = this.bytes;
    const i = this.base + offset;
    return this.little ? b[i] | (b[i + 1] << 8) : (b[i] << 8) | b[i + 1];
  }
  u32(offset: number) {
    const b = this.bytes;
    const i = this.base + offset;
    return this.little
      ? (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0
      : ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
  }
  /** Entries of the IFD at `offset`: [tag, type, count, entryOffset]. */
  entries(offset: number): Array<{ tag: number; type: number; count: number; at: number }> {
    if (!this.inRange(offset, 2)) return [];
    const n = this.u16(offset);
    if (!this.inRange(offset + 2, n * 12)) return [];
    return Array.from({ length: n }, (_, i) => {
      const at = offset + 2 + i * 12;
      return { tag: this.u16(at), type: this.u16(at + 2), count: this.u32(at + 4), at };
    });
  }
  ifd0() {
    return this.u32(4);
  }
  orientation(): number {
    const entry = this.entries(this.ifd0()).find((e) => e.tag === TAG_ORIENTATION);
    if (!entry) return 1;
    const value = this.u16(entry.at + 8);
    return value >= 1 && value <= 8 ? value : 1;
  }
  /** Empties the GPS IFD in place (values and entries zeroed), so every other offset stays valid. */
  clearGps(): boolean {
    const pointer = this.entries(this.ifd0()).find((e) => e.tag === TAG_GPS_IFD);
    if (!pointer) return false;
    const gps = this.u32(pointer.at + 8);
    const entries = this.entries(gps);
    for (const entry of entries) {
      const size = (TYPE_SIZES[entry.type] ?? 1) * entry.count;
      if (size > 4) {
        const valueOffset = this.u32(entry.at + 8);
        if (this.inRange(valueOffset, size)) {
          this.bytes.fill(0, this.base + valueOffset, this.base + valueOffset + size);
        }
      }
    }
    // Count 0 and a zero next-IFD pointer right after it: an empty, valid IFD.
    if (this.inRange(gps, 2 + entries.length * 12 + 4)) {
      this.bytes.fill(0, this.base + gps, this.base + gps + 2 + entries.length * 12 + 4);
    }
    return entries.length > 0;
  }
}

function exifTiff(bytes: Uint8Array, segment: JpegSegment): Tiff | null {
  if (segment.marker !== 0xe1 || !startsWith(bytes, segment.payloadStart, EXIF_ID)) return null;
  return Tiff.at(bytes, segment.payloadStart + 6, segment.end);
}

/** Width, height and orientation from the header bytes alone (no decoding); null when unreadable. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  if (isPng(bytes)) {
    const chunks = pngChunks(bytes);
    const ihdr = chunks[0];
    if (!ihdr || ihdr.type !== 'IHDR' || ihdr.dataEnd - ihdr.dataStart < 8) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset + ihdr.dataStart, 8);
    const exif = chunks.find((c) => c.type === 'eXIf');
    const orientation = exif ? (Tiff.at(bytes, exif.dataStart, exif.dataEnd)?.orientation() ?? 1) : 1;
    return oriented('png', view.getUint32(0), view.getUint32(4), orientation);
  }
  if (!isJpeg(bytes)) return null;
  const { segments } = jpegSegments(bytes);
  let orientation = 1;
  for (const segment of segments) {
    const tiff = exifTiff(bytes, segment);
    if (tiff) orientation = tiff.orientation();
    if (isJpegFrame(segment.marker)) {
      const p = segment.payloadStart;
      const height = (bytes[p + 1] << 8) | bytes[p + 2];
      const width = (bytes[p + 3] << 8) | bytes[p + 4];
      return oriented('jpeg', width, height, orientation);
    }
  }
  return null;
}

function oriented(format: ImageHeader['format'], width: number, height: number, orientation: number) {
  const swap = orientation >= 5 && orientation <= 8;
  return { format, width: swap ? height : width, height: swap ? width : height, orientation };
}

export interface StrippedHead {
  /** The new bytes for the file up to the scan. */
  head: Uint8Array;
  /** Where the untouched rest of the original file starts (the SOS marker). */
  restStart: number;
  /** Whether anything was removed. */
  changed: boolean;
}

/**
 * Drops location data from a JPEG without re-encoding it: the EXIF GPS directory is emptied in
 * place (orientation and the other tags stay) and XMP packets, which may repeat the location, are
 * removed. Comment (COM) segments are kept: the service reads its scenario markers there.
 * `bytes` must reach the SOS marker; returns null when it does not (read more of the file).
 */
export function stripJpegLocation(bytes: Uint8Array): StrippedHead | null {
  if (!isJpeg(bytes)) return null;
  const { segments, scanStart } = jpegSegments(bytes);
  if (scanStart < 0) return null;
  const head = bytes.slice(0, scanStart);
  const parts: Uint8Array[] = [head.subarray(0, 2)];
  let changed = false;
  for (const segment of segments) {
    const isXmp =
      segment.marker === 0xe1 &&
      XMP_IDS.some(
        (id) => latin1(head.subarray(segment.payloadStart, segment.payloadStart + id.length)) === id,
      );
    if (isXmp) {
      changed = true;
      continue;
    }
    const tiff = exifTiff(head, segment);
    if (tiff?.clearGps()) changed = true;
    parts.push(head.subarray(segment.start, segment.end));
  }
  return { head: concat(parts), restStart: scanStart, changed };
}

/** Empties the GPS directory of a PNG's eXIf chunk (and fixes its CRC); returns a new array. */
export function stripPngLocation(bytes: Uint8Array): { bytes: Uint8Array; changed: boolean } {
  if (!isPng(bytes)) return { bytes, changed: false };
  const exif = pngChunks(bytes).find((c) => c.type === 'eXIf');
  if (!exif) return { bytes, changed: false };
  const copy = bytes.slice();
  const tiff = Tiff.at(copy, exif.dataStart, exif.dataEnd);
  if (!tiff?.clearGps()) return { bytes, changed: false };
  const crc = crc32(copy.subarray(exif.start + 4, exif.dataEnd));
  new DataView(copy.buffer, copy.byteOffset).setUint32(exif.dataEnd, crc);
  return { bytes: copy, changed: true };
}

/**
 * The scenario/person markers (text holding `idv-`) of a JPEG's COM segments or a PNG's text
 * chunks, so they can be carried over when a file has to be re-encoded.
 */
export function readTextMarkers(bytes: Uint8Array): string[] {
  const texts: string[] = [];
  if (isJpeg(bytes)) {
    for (const s of jpegSegments(bytes).segments) {
      if (s.marker === 0xfe) texts.push(utf8.decode(bytes.subarray(s.payloadStart, s.end)));
    }
  } else if (isPng(bytes)) {
    for (const c of pngChunks(bytes)) {
      const data = bytes.subarray(c.dataStart, c.dataEnd);
      const nul = data.indexOf(0);
      if (nul < 0 || (c.type !== 'tEXt' && c.type !== 'iTXt')) continue;
      const keyword = latin1(data.subarray(0, nul));
      let text: string;
      if (c.type === 'tEXt') text = latin1(data.subarray(nul + 1));
      else {
        if (data[nul + 1] !== 0) continue; // compressed iTXt: not used by the samples
        const lang = data.indexOf(0, nul + 3);
        const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
        if (translated < 0) continue;
        text = utf8.decode(data.subarray(translated + 1));
      }
      texts.push(text.includes('idv-') ? text : `${keyword}=${text}`);
    }
  }
  return texts.filter((t) => t.includes('idv-'));
}

/**
 * The JPEG up to its scan without its EXIF segments (`bytes` must reach the SOS marker; null when it
 * does not or is no JPEG). A browser decodes a file made of this head and the untouched rest as the
 * pixels are stored, whatever turn the EXIF orientation names.
 */
export function jpegHeadWithoutExif(bytes: Uint8Array): StrippedHead | null {
  if (!isJpeg(bytes)) return null;
  const { segments, scanStart } = jpegSegments(bytes);
  if (scanStart < 0) return null;
  const parts: Uint8Array[] = [bytes.subarray(0, 2)];
  let changed = false;
  for (const segment of segments) {
    if (segment.marker === 0xe1 && startsWith(bytes, segment.payloadStart, EXIF_ID)) changed = true;
    else parts.push(bytes.subarray(segment.start, segment.end));
  }
  return { head: concat(parts), restStart: scanStart, changed };
}

/** An APP1 EXIF segment holding only an orientation (big-endian TIFF, one IFD with one entry). */
function exifOrientationSegment(orientation: number): Uint8Array {
  const tiff = [
    0x4d,
    0x4d,
    0,
    42,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const length = 2 + EXIF_ID.length + tiff.length;
  return new Uint8Array([0xff, 0xe1, length >> 8, length & 0xff, ...EXIF_ID, ...tiff]);
}

/**
 * Adds to a JPEG, after its leading APPn segments (where JFIF/EXIF readers expect them), an EXIF
 * orientation when it is not 1 and a COM segment per comment.
 */
export function addJpegSegments(
  bytes: Uint8Array,
  { comments = [], orientation = 1 }: { comments?: readonly string[]; orientation?: number },
): Uint8Array {
  const turned = orientation >= 2 && orientation <= 8;
  if ((!comments.length && !turned) || !isJpeg(bytes)) return bytes;
  const { segments } = jpegSegments(bytes);
  let insertAt = 2;
  for (const s of segments) {
    if (s.marker < 0xe0 || s.marker > 0xef) break;
    insertAt = s.end;
  }
  const encoder = new TextEncoder();
  const coms = comments.map((comment) => {
    const text = encoder.encode(comment).subarray(0, 65533);
    const segment = new Uint8Array(text.length + 4);
    segment.set([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]);
    segment.set(text, 4);
    return segment;
  });
  return concat([
    bytes.subarray(0, insertAt),
    ...(turned ? [exifOrientationSegment(orientation)] : []),
    ...coms,
    bytes.subarray(insertAt),
  ]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const b of bytes) crc = crcTable[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
