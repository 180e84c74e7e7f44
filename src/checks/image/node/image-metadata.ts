import { open, type FileHandle } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import {
  isJpegFrame,
  isJpegHead,
  isPngHead,
  isProgressiveJpegFrame,
  walkAsync,
  walkJpeg,
  walkJpegScans,
  walkPng,
} from '@/checks/image/image-structure';

/**
 * Metadata an image may carry before sharp is allowed to read it: sharp turns every PNG text
 * chunk (inflating the compressed ones) and every JPEG APPn/COM segment into strings and buffers,
 * so 40 MB of text chunks cost hundreds of MB. The file's structure is walked first, reading only
 * chunk and segment headers and the metadata itself up to this many bytes (decompressed).
 */
export const MAX_IMAGE_METADATA_BYTES = 2 * 1024 * 1024;

/** PNG chunks holding text or profiles (the ones sharp reads into its metadata). */
const PNG_METADATA = new Set(['tEXt', 'zTXt', 'iTXt', 'iCCP', 'eXIf']);

/** Positioned reads through a 64 KB window, so a file of many small chunks costs few reads. */
class Reader {
  private window = Buffer.alloc(0);
  private windowAt = 0;
  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  async bytes(at: number, length: number): Promise<Buffer | null> {
    if (at + length > this.size) return null;
    if (at < this.windowAt || at + length > this.windowAt + this.window.length) {
      const size = Math.max(length, 64 * 1024);
      const buffer = Buffer.alloc(Math.min(size, this.size - at));
      const { bytesRead } = await this.file.read(buffer, 0, buffer.length, at);
      this.window = buffer.subarray(0, bytesRead);
      this.windowAt = at;
    }
    if (at + length > this.windowAt + this.window.length) return null;
    return this.window.subarray(at - this.windowAt, at - this.windowAt + length);
  }
}

/** Bytes a compressed PNG chunk inflates to, at most `cap + 1`. */
function inflatedSize(data: Buffer, cap: number) {
  try {
    return inflateSync(data, { maxOutputLength: cap + 1 }).length;
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? cap + 1 : 0;
  }
}

/**
 * Bytes a decoder must hold at once whatever the scale it decodes at: a progressive JPEG's
 * coefficients (every block of every component, 64 × 2 bytes, until the last scan has been read:
 * shrink-on-load scales only the inverse DCT) and an interlaced PNG's pixels (Adam7 passes fill
 * the whole image before a row is final); a plain PNG's rows the shrink holds (PNG_DECODE_ROWS). 0
 * for a baseline JPEG, decoded row by row at the shrunk scale.
 */
export const MAX_BUFFERED_DECODE_BYTES = 64 * 1024 * 1024;

/**
 * Rows of a PNG that libvips holds while it shrinks the image (a PNG has no shrink-on-load): the
 * peak of one decode to 1024 px grew with the row's bytes, ~2,000 rows whatever the height
 * (measured: 10000 px wide 16-bit RGB +100–115 MB, RGBA +156 MB, 20000 px +188 MB; 8-bit RGB
 * 10000 px +61 MB, 4000 px +23 MB). Three 100 MP 16-bit PNGs at once took the service from 540 to
 * 880 MB while the budget weighed each as a baseline photo's 24 MB.
 */
export const PNG_DECODE_ROWS = 2048;

/**
 * Scans a JPEG may hold. Each scan is a pass of the decoder over every block of its components, at
 * any scale: a 2 MB file of 50,000 tiny scans over 63 MiB of coefficients kept a decoder busy for
 * two minutes (2.3 ms a scan). Encoders write far fewer: 10 for libjpeg's and sharp's default
 * progressive script (6 for grey), 8–11 for mozjpeg's optimised ones, 5–7 in the 50 progressive
 * photos of the eval set of bench:accuracy; a baseline file has one, or one per component. At this bound the
 * largest decode allowed (MAX_BUFFERED_DECODE_BYTES) spends about half a second of CPU on its
 * scans (4.5 ms each, measured on the 2-core test machine).
 */
export const MAX_JPEG_SCANS = 100;

export interface ImageStructure {
  /** Metadata bytes (decompressed), counting stopped just past the cap. */
  metadataBytes: number;
  /** What the decoder holds at once whatever the scale (see MAX_BUFFERED_DECODE_BYTES). */
  bufferedDecodeBytes: number;
  /** Progressive JPEG or interlaced PNG. */
  progressive: boolean;
  /** A JPEG's scans, counted where it may have more than one (stopped just past MAX_JPEG_SCANS). */
  scans: number;
}

/** Coefficient bytes of a JPEG frame (SOFn payload): blocks per component rounded up to its MCUs. */
function jpegCoefficientBytes(sof: Buffer) {
  const height = sof.readUInt16BE(1);
  const width = sof.readUInt16BE(3);
  const count = sof[5];
  const factors = Array.from({ length: count }, (_, i) => sof[7 + i * 3] ?? 0x11);
  const hMax = Math.max(1, ...factors.map((f) => f >> 4));
  const vMax = Math.max(1, ...factors.map((f) => f & 15));
  const mcusWide = Math.ceil(width / (8 * hMax));
  const mcusHigh = Math.ceil(height / (8 * vMax));
  return factors.reduce((sum, f) => sum + mcusWide * (f >> 4) * mcusHigh * (f & 15) * 128, 0);
}

async function pngMetadataBytes(reader: Reader, cap: number, structure: ImageStructure) {
  let total = 0;
  const read = (at: number, length: number) => reader.bytes(at, length);
  await walkAsync(walkPng(reader.size), read, async ({ type, dataStart, dataEnd }) => {
    const length = dataEnd - dataStart;
    if (type === 'IHDR') {
      const ihdr = await reader.bytes(dataStart, 13);
      if (ihdr) {
        // Channels as decoded: a palette expands to RGB or RGBA, samples under 8 bits to bytes.
        const channels = { 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 }[ihdr[9]] ?? 4;
        const rowBytes = ihdr.readUInt32BE(0) * channels * (ihdr[8] === 16 ? 2 : 1);
        structure.progressive = ihdr[12] === 1;
        // Adam7: the decoder holds every row; else the shrink holds PNG_DECODE_ROWS of them.
        structure.bufferedDecodeBytes =
          rowBytes * (structure.progressive ? ihdr.readUInt32BE(4) : PNG_DECODE_ROWS);
      }
    }
    if (!PNG_METADATA.has(type)) return true;
    total += length;
    if (total > cap) return false;
    const data = await reader.bytes(dataStart, length);
    if (!data) return false;
    // zTXt and iCCP: keyword NUL method data; iTXt: keyword NUL flag method lang NUL key NUL text.
    const nul = data.indexOf(0);
    if ((type === 'zTXt' || type === 'iCCP') && nul !== -1) {
      total += inflatedSize(data.subarray(nul + 2), cap - total);
    } else if (type === 'iTXt' && nul !== -1 && data[nul + 1] === 1) {
      const lang = data.indexOf(0, nul + 3);
      const key = lang === -1 ? -1 : data.indexOf(0, lang + 1);
      if (key !== -1) total += inflatedSize(data.subarray(key + 1), cap - total);
    }
    return total <= cap;
  });
  return total;
}

async function jpegMetadataBytes(reader: Reader, cap: number, structure: ImageStructure) {
  let total = 0;
  let frame = null as Buffer | null;
  const read = (at: number, length: number) => reader.bytes(at, length);
  // sharp reads no metadata past the first scan, where the walk ends.
  const firstScan = await walkAsync(walkJpeg(reader.size), read, async ({ marker, payloadStart, end }) => {
    if (isJpegFrame(marker)) {
      const sof = await reader.bytes(payloadStart, end - payloadStart);
      if (sof && sof.length >= 6) {
        frame = sof;
        structure.progressive = isProgressiveJpegFrame(marker);
        if (structure.progressive) structure.bufferedDecodeBytes = jpegCoefficientBytes(sof);
      }
    }
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) {
      // The length field's own two bytes count too, as the segment's declared length does.
      total += end - payloadStart + 2;
      return total <= cap;
    }
    return true;
  });
  if (total > cap || !frame || firstScan === undefined || firstScan < 0) return total;
  const sof: Buffer = frame;
  // libjpeg buffers every coefficient when the first scan does not code every component (a
  // progressive file, or a sequential one coded one component a scan), and then reads every scan.
  let multiScan = structure.progressive;
  await walkAsync(walkJpegScans(reader.size, firstScan), read, ({ components }) => {
    if (structure.scans === 0 && components < sof[5]) {
      multiScan = true;
      structure.bufferedDecodeBytes = jpegCoefficientBytes(sof);
    }
    structure.scans++;
    return multiScan && structure.scans <= MAX_JPEG_SCANS;
  });
  return total;
}

/**
 * A PNG's or a JPEG's structure from its chunk and segment headers: bytes of metadata (text
 * chunks, profiles, APPn and COM segments; decompressed; counting stops just past `cap`) and what
 * a decode must buffer. Zeros for other formats.
 */
export async function imageStructure(path: string, cap = MAX_IMAGE_METADATA_BYTES): Promise<ImageStructure> {
  const structure: ImageStructure = {
    metadataBytes: 0,
    bufferedDecodeBytes: 0,
    progressive: false,
    scans: 0,
  };
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const reader = new Reader(file, size);
    const head = await reader.bytes(0, 8);
    if (!head) return structure;
    if (isPngHead(head)) {
      structure.metadataBytes = await pngMetadataBytes(reader, cap, structure);
    } else if (isJpegHead(head)) {
      structure.metadataBytes = await jpegMetadataBytes(reader, cap, structure);
    }
    return structure;
  } finally {
    await file.close();
  }
}

/** Bytes of metadata only (see imageStructure). */
export const imageMetadataBytes = async (path: string, cap = MAX_IMAGE_METADATA_BYTES) =>
  (await imageStructure(path, cap)).metadataBytes;
