import { Readable } from 'node:stream';
import { constants, createBrotliDecompress, createInflate } from 'node:zlib';

/**
 * What the streams of a PDF decode to, measured before pdf.js reads the file: every `stream`
 * body is run through its whole filter chain (ASCIIHex, ASCII85, RunLength, LZW, Flate, Brotli,
 * in any order) as streams, and only the bytes coming out are counted, never kept. A counter
 * past its cap ends the decoding at once, so a "PDF bomb" costs a few chunks of memory and the
 * time to decode the cap.
 *
 * The body is found the way pdf.js finds it (data starts after the first CR, CRLF or LF after the
 * `stream` keyword; it ends at `/Length` or at the next `endstream`, whichever is later here, so
 * that the measure bounds what pdf.js decodes whichever it picks). A filter given by an indirect
 * reference is looked up; when the chain cannot be known, it is guessed from the bytes.
 */

export interface DecodeLimits {
  /** Bytes one stream may decode to. */
  stream: number;
  /** Bytes all streams of the file may decode to. */
  total: number;
}

const CHUNK = 64 * 1024;
/** Filters applied at most; a longer chain is refused as if it decoded past the cap. */
const MAX_CHAIN = 8;
/** A stream dictionary longer than this is not parsed (the chain is guessed). */
const MAX_DICT_CHARS = 64 * 1024;

type Filter = 'Fl' | 'AHx' | 'A85' | 'RL' | 'LZW' | 'Br' | 'other';

const FILTER_NAMES: Record<string, Filter> = {
  Fl: 'Fl',
  FlateDecode: 'Fl',
  AHx: 'AHx',
  ASCIIHexDecode: 'AHx',
  A85: 'A85',
  ASCII85Decode: 'A85',
  RL: 'RL',
  RunLengthDecode: 'RL',
  LZW: 'LZW',
  LZWDecode: 'LZW',
  BrotliDecode: 'Br',
};

type Chunks = AsyncIterable<Buffer>;

async function* slices(buffer: Buffer, start: number, end: number): Chunks {
  for (let at = start; at < end; at += CHUNK) yield buffer.subarray(at, Math.min(end, at + CHUNK));
}

/** A Node zlib decompressor as a chunk transform; bad or truncated data just ends the output. */
async function* viaZlib(source: Chunks, make: () => NodeJS.ReadWriteStream): Chunks {
  const input = Readable.from(source);
  const decoder = make();
  input.on('error', () => decoder.end());
  input.pipe(decoder as unknown as NodeJS.WritableStream);
  try {
    for await (const chunk of decoder as unknown as AsyncIterable<Buffer>) yield chunk;
  } catch {
    // Invalid data: what came out so far is what pdf.js would get too.
  } finally {
    input.destroy();
    (decoder as unknown as { destroy(): void }).destroy();
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0;

function hexValue(b: number) {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

async function* asciiHex(source: Chunks): Chunks {
  let high = -1;
  for await (const chunk of source) {
    const out = Buffer.allocUnsafe(chunk.length >> 1 || 1);
    let n = 0;
    for (const b of chunk) {
      if (b === 0x3e) {
        if (high >= 0) out[n++] = high << 4;
        if (n) yield out.subarray(0, n);
        return;
      }
      const v = hexValue(b);
      if (v < 0) continue;
      if (high < 0) high = v;
      else {
        out[n++] = (high << 4) | v;
        high = -1;
      }
    }
    if (n) yield out.subarray(0, n);
  }
}

async function* ascii85(source: Chunks): Chunks {
  let group = 0;
  let count = 0;
  for await (const chunk of source) {
    // Each input byte yields at most 4 (`z`).
    const out = Buffer.allocUnsafe(chunk.length * 4);
    let n = 0;
    for (const b of chunk) {
      if (b === 0x7e) {
        if (count > 1) {
          for (let i = count; i < 5; i++) group = group * 85 + 84;
          for (let i = 0; i < count - 1; i++) out[n++] = (group >>> (24 - 8 * i)) & 0xff;
        }
        if (n) yield out.subarray(0, n);
        return;
      }
      if (b === 0x7a && count === 0) {
        out.fill(0, n, n + 4);
        n += 4;
      } else if (b >= 0x21 && b <= 0x75) {
        group = group * 85 + (b - 0x21);
        if (++count === 5) {
          out.writeUInt32BE(group >>> 0, n);
          n += 4;
          group = 0;
          count = 0;
        }
      }
    }
    if (n) yield out.subarray(0, n);
  }
}

async function* runLength(source: Chunks): Chunks {
  let state: 'len' | 'copy' | 'repeat' = 'len';
  let left = 0;
  for await (const chunk of source) {
    const parts: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (state === 'len') {
        const n = chunk[i++];
        if (n === 128) {
          for (const part of parts) yield part;
          return;
        }
        if (n < 128) [state, left] = ['copy', n + 1];
        else [state, left] = ['repeat', 257 - n];
      } else if (state === 'copy') {
        const take = Math.min(left, chunk.length - i);
        parts.push(chunk.subarray(i, i + take));
        i += take;
        left -= take;
        if (left === 0) state = 'len';
      } else {
        parts.push(Buffer.alloc(left, chunk[i++]));
        state = 'len';
      }
    }
    for (const part of parts) yield part;
  }
}

/** LZW as PDF uses it (MSB first, 9–12 bit codes, clear 256, end 257, early change 1). */
async function* lzw(source: Chunks, earlyChange = 1): Chunks {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) [suffix[i], length[i], prefix[i]] = [i, 1, -1];
  let next = 258;
  let codeLength = 9;
  let previous = -1;
  let bits = 0;
  let bitCount = 0;
  const first = (code: number) => {
    while (prefix[code] >= 0) code = prefix[code];
    return suffix[code];
  };
  for await (const chunk of source) {
    const parts: Buffer[] = [];
    for (const b of chunk) {
      bits = ((bits << 8) | b) & 0xffffff;
      bitCount += 8;
      while (bitCount >= codeLength) {
        const code = (bits >>> (bitCount - codeLength)) & ((1 << codeLength) - 1);
        bitCount -= codeLength;
        if (code === 256) {
          [next, codeLength, previous] = [258, 9, -1];
          continue;
        }
        if (code === 257) {
          for (const part of parts) yield part;
          return;
        }
        let emit: number;
        if (code < next) emit = code;
        else if (code === next && previous >= 0) emit = -1;
        else {
          for (const part of parts) yield part;
          return;
        }
        if (previous >= 0 && next < 4096) {
          prefix[next] = previous;
          suffix[next] = emit === -1 ? first(previous) : first(emit);
          length[next] = length[previous] + 1;
          next++;
        }
        const out = emit === -1 ? next - 1 : emit;
        const bytes = Buffer.allocUnsafe(length[out]);
        for (let c = out, at = length[out] - 1; c >= 0; c = prefix[c]) bytes[at--] = suffix[c];
        parts.push(bytes);
        previous = out;
        if (next + earlyChange >= 1 << codeLength && codeLength < 12) codeLength++;
      }
    }
    for (const part of parts) yield part;
  }
}

function decoder(filter: Filter): ((source: Chunks) => Chunks) | null {
  switch (filter) {
    case 'Fl':
      return (s) => viaZlib(s, () => createInflate({ finishFlush: constants.Z_SYNC_FLUSH }));
    case 'Br':
      return (s) =>
        viaZlib(s, () => createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH }));
    case 'AHx':
      return asciiHex;
    case 'A85':
      return ascii85;
    case 'RL':
      return runLength;
    case 'LZW':
      return (s) => lzw(s);
    default:
      // Image codecs (DCT, JPX, JBIG2, CCITT): pdf.js does not decode them to read text.
      return null;
  }
}

/** Names as pdf.js reads them: `#xx` is a byte. */
const decodeName = (raw: string) =>
  raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

class PdfText {
  readonly text: string;
  private objects: Map<string, number[]> | undefined;
  constructor(buffer: Buffer) {
    // latin1 keeps one character per byte, so offsets match.
    this.text = buffer.toString('latin1');
  }

  /**
   * Every definition of object `num gen` (its first 4 KB each): an updated or hostile file may
   * define it twice, and which one pdf.js takes depends on its cross-reference table.
   */
  object(num: number, gen: number): string[] {
    if (!this.objects) {
      this.objects = new Map();
      const re = /(\d+)\s+(\d+)\s+obj\b/g;
      for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
        const key = `${Number(m[1])} ${Number(m[2])}`;
        this.objects.set(key, [...(this.objects.get(key) ?? []), re.lastIndex]);
      }
    }
    return (this.objects.get(`${num} ${gen}`) ?? []).map((at) => this.text.slice(at, at + 4096).trimStart());
  }

  /** `/Key value` candidates in a dictionary's text (keys of nested dictionaries included). */
  values(dict: string, keys: string[]): string[] {
    const found: string[] = [];
    const re = /\/((?:[^\s/<>[\]()%{}]|#[0-9a-fA-F]{2})+)/g;
    for (let m = re.exec(dict); m; m = re.exec(dict)) {
      if (keys.includes(decodeName(m[1]))) found.push(dict.slice(re.lastIndex).trimStart());
    }
    return found;
  }

  /** The filter chains the text after `/Filter` may stand for; null when it cannot be read. */
  chains(value: string, depth = 0): Filter[][] | null {
    const ref = /^(\d+)\s+(\d+)\s+R\b/.exec(value);
    if (ref) {
      if (depth > 1) return null;
      const targets = this.object(Number(ref[1]), Number(ref[2]));
      if (targets.length === 0) return null;
      const all: Filter[][] = [];
      for (const target of targets) {
        const chains = this.chains(target, depth + 1);
        if (!chains) return null;
        all.push(...chains);
      }
      return all;
    }
    const name = (token: string) => FILTER_NAMES[decodeName(token)] ?? 'other';
    if (value.startsWith('/')) {
      const m = /^\/((?:[^\s/<>[\]()%{}]|#[0-9a-fA-F]{2})*)/.exec(value);
      return m ? [[name(m[1])]] : null;
    }
    if (value.startsWith('[')) {
      const end = value.indexOf(']');
      if (end === -1) return null;
      const items = value.slice(1, end).match(/\/(?:[^\s/<>[\]()%{}]|#[0-9a-fA-F]{2})*|\d+\s+\d+\s+R/g) ?? [];
      let chains: Filter[][] = [[]];
      for (const item of items) {
        const options = item.startsWith('/') ? [[name(item.slice(1))]] : this.chains(item, depth + 1);
        if (!options) return null;
        chains = chains.flatMap((chain) => options.map((option) => [...chain, ...option]));
        if (chains.length > 16) return null;
      }
      return chains;
    }
    return null;
  }

  /** The largest integer the text after `/Length` may stand for (direct or through a reference). */
  integer(value: string): number | null {
    const ref = /^(\d+)\s+(\d+)\s+R\b/.exec(value);
    const texts = ref ? this.object(Number(ref[1]), Number(ref[2])) : [value];
    let largest: number | null = null;
    for (const text of texts) {
      const m = /^(\d+)/.exec(text);
      if (m) largest = Math.max(largest ?? 0, Number(m[1]));
    }
    return largest;
  }
}

/** The filter a body most likely starts with when its dictionary says nothing readable. */
function guess(body: Buffer): Filter | null {
  if (body.length >= 2 && (body[0] & 0x0f) === 8 && ((body[0] << 8) | body[1]) % 31 === 0) return 'Fl';
  const head = body.subarray(0, 64);
  let text = head.length > 0;
  for (const b of head) if (!(isSpace(b) || hexValue(b) >= 0 || b === 0x3e)) text = false;
  if (text) return 'AHx';
  text = head.length > 0;
  for (const b of head)
    if (!(isSpace(b) || (b >= 0x21 && b <= 0x75) || b === 0x7a || b === 0x7e)) text = false;
  if (text) return 'A85';
  if (body[0] === 0x80 && body.length > 1 && body[1] < 0x80) return 'LZW';
  return null;
}

interface StreamBody {
  start: number;
  end: number;
  /** Known chain, or null to guess from the bytes at each stage. */
  chains: Filter[][] | null;
}

/** Every `stream` body of the file, found as pdf.js finds them. */
function* streamBodies(buffer: Buffer, pdf: PdfText): Generator<StreamBody> {
  const { text } = pdf;
  for (let at = text.indexOf('stream'); at !== -1; at = text.indexOf('stream', at + 6)) {
    if (at >= 3 && text.startsWith('end', at - 3)) continue;
    // Data starts after the first end of line after the keyword (pdf.js's skipToNextLine).
    let start = at + 6;
    while (start < buffer.length && buffer[start] !== 0x0a && buffer[start] !== 0x0d) start++;
    if (start >= buffer.length) break;
    start += buffer[start] === 0x0d && buffer[start + 1] === 0x0a ? 2 : 1;
    // The dictionary: from the `obj` before the keyword (or the last `<<`) to the keyword.
    const objAt = text.lastIndexOf('obj', at);
    const dict = objAt !== -1 && at - objAt <= MAX_DICT_CHARS ? text.slice(objAt + 3, at) : null;
    let chains: Filter[][] | null = null;
    let end = text.indexOf('endstream', start);
    if (end === -1) end = buffer.length;
    if (dict !== null) {
      const filters = pdf.values(dict, ['F', 'Filter']);
      const parsed = filters.map((value) => pdf.chains(value));
      chains = parsed.every((options) => options !== null) ? (parsed as Filter[][][]).flat() : null;
      if (chains && chains.length === 0) chains = [[]];
      for (const value of pdf.values(dict, ['Length'])) {
        const length = pdf.integer(value);
        if (length !== null && start + length > end) end = Math.min(buffer.length, start + length);
      }
    }
    yield { start, end, chains };
  }
}

/** Counts what a chain decodes the body to, stopping past `cap`. */
async function measure(buffer: Buffer, body: StreamBody, chain: Filter[] | null, cap: number) {
  let source: Chunks = slices(buffer, body.start, body.end);
  if (chain) {
    if (chain.length > MAX_CHAIN) return cap + 1;
    for (const filter of chain) {
      const decode = decoder(filter);
      if (!decode) break;
      source = decode(source);
    }
  } else {
    // Unknown chain: guess each stage from its first bytes.
    let head = buffer.subarray(body.start, Math.min(body.end, body.start + 64));
    let filter = guess(head);
    if (!filter) return 0;
    for (let depth = 0; filter; depth++) {
      if (depth >= MAX_CHAIN) return cap + 1;
      source = decoder(filter)!(source);
      const peeked = await peek(source);
      source = peeked.rest;
      head = peeked.head;
      // Past the first stage only a zlib header is telling (text guesses would shrink the count).
      filter = guess(head) === 'Fl' ? 'Fl' : null;
    }
  }
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > cap) break;
  }
  return total;
}

/** The first bytes of a chunk source, and the source again with them. */
async function peek(source: Chunks): Promise<{ head: Buffer; rest: Chunks }> {
  const iterator = source[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < 64) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    size += next.value.length;
  }
  async function* rest(): Chunks {
    yield* taken;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: Buffer.concat(taken).subarray(0, 64), rest: rest() };
}

/** True when the file's streams decode past the bounds (one stream or all together). */
export async function decodesTooMuch(bytes: Uint8Array, limits: DecodeLimits): Promise<boolean> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pdf = new PdfText(buffer);
  let total = 0;
  for (const body of streamBodies(buffer, pdf)) {
    const cap = Math.min(limits.stream, limits.total - total);
    let largest = 0;
    for (const chain of body.chains ?? [null]) {
      largest = Math.max(largest, await measure(buffer, body, chain, cap));
      if (largest > cap) return true;
    }
    total += largest;
    if (total > limits.total) return true;
  }
  return false;
}
