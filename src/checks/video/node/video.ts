import { open, type FileHandle } from 'node:fs/promises';
import type { FileFormat } from '@/shared/file-format';

/** Elements or boxes walked at most; a real 50 MB recording has far fewer at the levels we walk. */
const MAX_NODES = 200_000;

/** Reads small pieces at random offsets through a 64 KB cache, so a 50 MB file is never loaded. */
class Reader {
  private cache = Buffer.alloc(0);
  private cacheStart = 0;
  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  async bytes(position: number, length: number): Promise<Buffer> {
    if (position < 0 || position + length > this.size) throw new RangeError('read past the end');
    if (position < this.cacheStart || position + length > this.cacheStart + this.cache.length) {
      const chunk = Math.min(Math.max(length, 64 * 1024), this.size - position);
      const buffer = Buffer.alloc(chunk);
      await this.handle.read(buffer, 0, chunk, position);
      this.cache = buffer;
      this.cacheStart = position;
    }
    const start = position - this.cacheStart;
    return this.cache.subarray(start, start + length);
  }
}

/**
 * A whole container, with what its header declares: the length (none for a live recording or a
 * fragmented MP4 without one) and the largest video frame (none when no track states it).
 */
export type ContainerCheck =
  | {
      ok: true;
      durationSeconds?: number;
      width?: number;
      height?: number;
      tracks: number;
      /**
       * Frames of the largest video track as the header lists them (an MP4's sample table, a
       * WebM's blocks of that track); none where the container does not list them (a fragmented
       * MP4).
       */
      frames?: number;
    }
  | { ok: false; reason: string };

/** Checks that a video's container is whole: structure sizes agree with the file, and it holds media. */
export async function checkContainer(path: string, format: FileFormat): Promise<ContainerCheck> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const reader = new Reader(handle, size);
    if (format === 'webm' || format === 'mkv') return await checkEbml(reader);
    return await checkIsoBmff(reader);
  } catch {
    return { ok: false, reason: 'the video container is damaged' };
  } finally {
    await handle.close();
  }
}

interface Box {
  type: string;
  start: number;
  headerSize: number;
  size: number;
}

async function readBoxes(reader: Reader, start: number, end: number): Promise<Box[] | string> {
  const boxes: Box[] = [];
  let position = start;
  while (position < end) {
    if (end - position < 8) return 'trailing bytes after the last box';
    const header = await reader.bytes(position, 8);
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (size === 1) {
      if (end - position < 16) return 'a box header is cut off';
      const large = (await reader.bytes(position + 8, 8)).readBigUInt64BE(0);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) return `box ${type} is too large`;
      size = Number(large);
      headerSize = 16;
    } else if (size === 0) {
      size = end - position; // "to the end of the file"
    }
    if (!/^[\x20-\x7e]{4}$/.test(type)) return 'a box has a non-text type';
    if (size < headerSize) return `box ${type} has an impossible size`;
    if (position + size > end) return `box ${type} runs past the end of the file (truncated?)`;
    boxes.push({ type, start: position, headerSize, size });
    if (boxes.length > MAX_NODES) return 'too many boxes';
    position += size;
  }
  return boxes;
}

/** ISO-BMFF (MP4, MOV, 3GP): top-level boxes tile the file exactly; ftyp, moov with a track, media data. */
async function checkIsoBmff(reader: Reader): Promise<ContainerCheck> {
  const top = await readBoxes(reader, 0, reader.size);
  if (typeof top === 'string') return { ok: false, reason: top };
  const types = top.map((b) => b.type);
  if (top[0]?.type !== 'ftyp' && !types.includes('ftyp')) return { ok: false, reason: 'no ftyp box' };
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) return { ok: false, reason: 'no moov box (the recording was not finished)' };
  const mdat = top.filter((b) => b.type === 'mdat');
  if (mdat.length === 0 || mdat.every((b) => b.size <= b.headerSize)) {
    return { ok: false, reason: 'no media data' };
  }
  const children = await readBoxes(reader, moov.start + moov.headerSize, moov.start + moov.size);
  if (typeof children === 'string') return { ok: false, reason: `moov: ${children}` };
  const mvhd = children.find((b) => b.type === 'mvhd');
  const tracks = children.filter((b) => b.type === 'trak').length;
  if (!mvhd || tracks === 0) return { ok: false, reason: 'moov has no header or no track' };
  let durationSeconds = await mvhdDuration(reader, mvhd);
  const mvex = children.find((b) => b.type === 'mvex');
  if (mvex) {
    // Fragmented: the movie header's length covers no fragment; `mehd` states the whole, if present.
    durationSeconds = undefined;
    const inMvex = await readBoxes(reader, mvex.start + mvex.headerSize, mvex.start + mvex.size);
    const mehd = typeof inMvex === 'string' ? undefined : inMvex.find((b) => b.type === 'mehd');
    const timescale = await mvhdTimescale(reader, mvhd);
    if (mehd && timescale) {
      const body = await reader.bytes(
        mehd.start + mehd.headerSize,
        Math.min(12, mehd.size - mehd.headerSize),
      );
      const fragmentDuration =
        body[0] === 1 && body.length >= 12
          ? Number(body.readBigUInt64BE(4))
          : body.length >= 8
            ? body.readUInt32BE(4)
            : 0;
      if (fragmentDuration > 0) durationSeconds = fragmentDuration / timescale;
    }
  }
  let width: number | undefined;
  let height: number | undefined;
  let frames: number | undefined;
  for (const trak of children.filter((b) => b.type === 'trak')) {
    const inTrak = await readBoxes(reader, trak.start + trak.headerSize, trak.start + trak.size);
    if (typeof inTrak === 'string') continue;
    const tkhd = inTrak.find((b) => b.type === 'tkhd');
    if (!tkhd || tkhd.size - tkhd.headerSize < 84) continue;
    // Width and height are the box's last 8 bytes, 16.16 fixed point (0 for a sound track).
    const size = await reader.bytes(tkhd.start + tkhd.size - 8, 8);
    const w = size.readUInt32BE(0) / 65536;
    const h = size.readUInt32BE(4) / 65536;
    if (w * h > (width ?? 0) * (height ?? 0)) {
      [width, height] = [Math.round(w), Math.round(h)];
      frames = await sampleCount(reader, inTrak);
    }
  }
  return { ok: true, durationSeconds, width, height, tracks, frames };
}

/** The samples (frames) a track's sample table lists: `mdia/minf/stbl/stsz`'s count. */
async function sampleCount(reader: Reader, inTrak: Box[]): Promise<number | undefined> {
  let boxes = inTrak;
  for (const type of ['mdia', 'minf', 'stbl']) {
    const box = boxes.find((b) => b.type === type);
    if (!box) return undefined;
    const inner = await readBoxes(reader, box.start + box.headerSize, box.start + box.size);
    if (typeof inner === 'string') return undefined;
    boxes = inner;
  }
  // stsz: version and flags (4), sample size (4), sample count (4); stz2 the same from offset 8.
  const table = boxes.find((b) => b.type === 'stsz' || b.type === 'stz2');
  if (!table || table.size - table.headerSize < 12) return undefined;
  const count = (await reader.bytes(table.start + table.headerSize + 8, 4)).readUInt32BE(0);
  // A fragmented MP4's sample table is empty: its frames are in the fragments.
  return count > 0 ? count : undefined;
}

async function mvhdTimescale(reader: Reader, mvhd: Box) {
  const body = await reader.bytes(mvhd.start + mvhd.headerSize, Math.min(32, mvhd.size - mvhd.headerSize));
  if (body[0] === 1 && body.length >= 24) return body.readUInt32BE(20);
  if (body[0] === 0 && body.length >= 16) return body.readUInt32BE(12);
  return 0;
}

async function mvhdDuration(reader: Reader, mvhd: Box) {
  const body = await reader.bytes(mvhd.start + mvhd.headerSize, Math.min(32, mvhd.size - mvhd.headerSize));
  const timescale = await mvhdTimescale(reader, mvhd);
  if (!timescale) return undefined;
  if (body[0] === 1 && body.length >= 32) return Number(body.readBigUInt64BE(24)) / timescale;
  if (body[0] === 0 && body.length >= 20) return body.readUInt32BE(16) / timescale;
  return undefined;
}

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const BLOCK_IDS = new Set([0xa3, 0xa0]); // SimpleBlock, BlockGroup
const DOC_TYPE = 0x4282;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const VIDEO = 0xe0;
const PIXEL_WIDTH = 0xb0;
const PIXEL_HEIGHT = 0xba;
const TRACK_NUMBER = 0xd7;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;

/** An unsigned integer or float element's value (EBML stores both big-endian, in 1–8 bytes). */
async function ebmlNumber(reader: Reader, element: Element, float = false): Promise<number | undefined> {
  const size = element.size ?? 0;
  if (size === 0 || size > 8) return undefined;
  const bytes = await reader.bytes(element.dataStart, size);
  if (float) return size === 4 ? bytes.readFloatBE(0) : size === 8 ? bytes.readDoubleBE(0) : undefined;
  let value = 0;
  for (const b of bytes) value = value * 256 + b;
  return value;
}

/** The children of a master element of known size (a damaged child ends the list). */
async function ebmlChildren(reader: Reader, parent: Element): Promise<Element[]> {
  const children: Element[] = [];
  const end = parent.dataStart + (parent.size ?? 0);
  for (let p = parent.dataStart; p < end && children.length < 1000;) {
    const child = await readElement(reader, p);
    if (typeof child === 'string' || child.size === null || child.dataStart + child.size > end) break;
    children.push(child);
    p = child.dataStart + child.size;
  }
  return children;
}

interface Element {
  id: number;
  start: number;
  dataStart: number;
  /** null: unknown size (live recordings, e.g. the browser's MediaRecorder). */
  size: number | null;
}

async function readElement(reader: Reader, position: number): Promise<Element | string> {
  const head = await reader.bytes(position, Math.min(12, reader.size - position));
  const first = head[0];
  if (first === undefined || first === 0) return 'an element id is invalid';
  const idLength = Math.clz32(first) - 23;
  if (idLength > 4 || head.length < idLength + 1) return 'an element id is invalid';
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + head[i];
  const sizeFirst = head[idLength];
  if (sizeFirst === 0) return 'an element size is invalid';
  const sizeLength = Math.clz32(sizeFirst) - 23;
  if (head.length < idLength + sizeLength) return 'an element header is cut off';
  let size = sizeFirst & (0xff >> sizeLength);
  let allOnes = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    const b = head[idLength + i];
    if (b !== 0xff) allOnes = false;
    size = size * 256 + b;
  }
  const dataStart = position + idLength + sizeLength;
  return { id, start: position, dataStart, size: allOnes ? null : size };
}

/**
 * EBML (WebM, Matroska): an EBML header with a DocType, then a Segment with Tracks and at least one
 * Cluster holding a block. Elements of known size must end inside their parent; a Segment or Cluster
 * of unknown size is read element by element to the end of the file.
 */
async function checkEbml(reader: Reader): Promise<ContainerCheck> {
  const header = await readElement(reader, 0);
  if (typeof header === 'string') return { ok: false, reason: header };
  if (header.id !== EBML_HEADER || header.size === null) return { ok: false, reason: 'no EBML header' };
  const headerEnd = header.dataStart + header.size;
  if (headerEnd > reader.size) return { ok: false, reason: 'the EBML header is cut off' };
  let docType = '';
  for (let p = header.dataStart; p < headerEnd;) {
    const child = await readElement(reader, p);
    if (typeof child === 'string' || child.size === null)
      return { ok: false, reason: 'the EBML header is damaged' };
    if (child.dataStart + child.size > headerEnd) return { ok: false, reason: 'the EBML header is damaged' };
    if (child.id === DOC_TYPE) docType = (await reader.bytes(child.dataStart, child.size)).toString('latin1');
    p = child.dataStart + child.size;
  }
  if (docType !== 'webm' && docType !== 'matroska')
    return { ok: false, reason: `unknown DocType ${docType}` };

  const segment = await readElement(reader, headerEnd);
  if (typeof segment === 'string') return { ok: false, reason: segment };
  if (segment.id !== SEGMENT) return { ok: false, reason: 'no Segment after the EBML header' };
  const segmentEnd = segment.size === null ? reader.size : segment.dataStart + segment.size;
  if (segmentEnd > reader.size)
    return { ok: false, reason: 'the Segment runs past the end of the file (truncated?)' };

  let tracks = 0;
  let blocks = 0;
  let videoBlocks = 0;
  let videoTrack: number | undefined;
  let nodes = 0;
  let durationSeconds: number | undefined;
  let width: number | undefined;
  let height: number | undefined;
  // Parents whose children we walk: the Segment itself and any Cluster (block presence).
  const stack: number[] = [segmentEnd];
  for (let p = segment.dataStart; p < segmentEnd;) {
    if (++nodes > MAX_NODES) break;
    while (stack.length > 1 && p >= stack[stack.length - 1]) stack.pop();
    const parentEnd = stack[stack.length - 1];
    const element = await readElement(reader, p);
    if (typeof element === 'string') return { ok: false, reason: element };
    if (element.size === null) {
      // Unknown size is only legal for master elements; read their children in place.
      if (element.id !== CLUSTER && element.id !== SEGMENT)
        return { ok: false, reason: 'an element has no size' };
      p = element.dataStart;
      continue;
    }
    const end = element.dataStart + element.size;
    if (end > parentEnd)
      return { ok: false, reason: 'an element runs past the end of the file (truncated?)' };
    if (element.id === CLUSTER) {
      stack.push(end);
      p = element.dataStart;
      continue;
    }
    if (element.id === TRACKS) {
      for (let q = element.dataStart; q < end;) {
        const entry = await readElement(reader, q);
        if (typeof entry === 'string' || entry.size === null)
          return { ok: false, reason: 'Tracks are damaged' };
        if (entry.id === TRACK_ENTRY) {
          tracks++;
          const video = (await ebmlChildren(reader, entry)).find((c) => c.id === VIDEO);
          const pixels = video ? await ebmlChildren(reader, video) : [];
          const pw = pixels.find((c) => c.id === PIXEL_WIDTH);
          const ph = pixels.find((c) => c.id === PIXEL_HEIGHT);
          const w = pw && (await ebmlNumber(reader, pw));
          const h = ph && (await ebmlNumber(reader, ph));
          if (w && h && w * h > (width ?? 0) * (height ?? 0)) {
            [width, height] = [w, h];
            const number = (await ebmlChildren(reader, entry)).find((c) => c.id === TRACK_NUMBER);
            videoTrack = number && (await ebmlNumber(reader, number));
          }
        }
        q = entry.dataStart + entry.size;
        if (q > end) return { ok: false, reason: 'Tracks are damaged' };
      }
    }
    if (element.id === INFO) {
      const info = await ebmlChildren(reader, element);
      const scale = info.find((c) => c.id === TIMECODE_SCALE);
      const duration = info.find((c) => c.id === DURATION);
      const nanosPerTick = (scale && (await ebmlNumber(reader, scale))) || 1_000_000;
      const ticks = duration && (await ebmlNumber(reader, duration, true));
      if (ticks !== undefined && Number.isFinite(ticks)) durationSeconds = (ticks * nanosPerTick) / 1e9;
    }
    if (BLOCK_IDS.has(element.id)) {
      blocks++;
      if (videoTrack !== undefined && (await blockTrack(reader, element)) === videoTrack) videoBlocks++;
    }
    p = end;
  }
  if (tracks === 0) return { ok: false, reason: 'no track' };
  if (blocks === 0) return { ok: false, reason: 'no media data' };
  // Counted only when the whole file was walked (the walk stops at MAX_NODES).
  const frames = videoTrack !== undefined && nodes <= MAX_NODES && videoBlocks > 0 ? videoBlocks : undefined;
  return { ok: true, tracks, durationSeconds, width, height, frames };
}

/** The track a SimpleBlock or a BlockGroup's Block belongs to (its data's first field, a vint). */
async function blockTrack(reader: Reader, element: Element): Promise<number | undefined> {
  let block: Element | undefined = element;
  if (element.id === BLOCK_GROUP) block = (await ebmlChildren(reader, element)).find((c) => c.id === BLOCK);
  if (!block || block.id === BLOCK_GROUP || (block.size ?? 0) < 1) return undefined;
  if (block.id !== SIMPLE_BLOCK && block.id !== BLOCK) return undefined;
  const first = (await reader.bytes(block.dataStart, 1))[0];
  // Track numbers under 127 (every recording's) take one byte: 1xxxxxxx.
  return first >= 0x80 ? first & 0x7f : undefined;
}
