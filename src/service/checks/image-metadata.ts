import { open, type FileHandle } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';

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

async function pngMetadataBytes(reader: Reader, cap: number) {
  let total = 0;
  for (let at = 8; at + 8 <= reader.size;) {
    const header = await reader.bytes(at, 8);
    if (!header) break;
    const length = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (PNG_METADATA.has(type)) {
      total += length;
      if (total > cap) return total;
      const data = await reader.bytes(at + 8, length);
      if (!data) break;
      // zTXt and iCCP: keyword NUL method data; iTXt: keyword NUL flag method lang NUL key NUL text.
      const nul = data.indexOf(0);
      if ((type === 'zTXt' || type === 'iCCP') && nul !== -1) {
        total += inflatedSize(data.subarray(nul + 2), cap - total);
      } else if (type === 'iTXt' && nul !== -1 && data[nul + 1] === 1) {
        const lang = data.indexOf(0, nul + 3);
        const key = lang === -1 ? -1 : data.indexOf(0, lang + 1);
        if (key !== -1) total += inflatedSize(data.subarray(key + 1), cap - total);
      }
      if (total > cap) return total;
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return total;
}

async function jpegMetadataBytes(reader: Reader, cap: number) {
  let total = 0;
  for (let at = 2; at + 4 <= reader.size;) {
    const header = await reader.bytes(at, 4);
    if (!header || header[0] !== 0xff) break;
    const marker = header[1];
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // Start of scan: sharp reads no metadata past it.
    if (marker === 0xda || marker === 0xd9) break;
    const length = header.readUInt16BE(2);
    if ((marker >= 0xe0 && marker <= 0xef) || marker === 0xfe) {
      total += length;
      if (total > cap) return total;
    }
    at += 2 + length;
  }
  return total;
}

/**
 * Bytes of metadata (text chunks, profiles, APPn and COM segments; decompressed) in a PNG or a
 * JPEG, counting stops just past `cap`; 0 for other formats.
 */
export async function imageMetadataBytes(path: string, cap = MAX_IMAGE_METADATA_BYTES): Promise<number> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const reader = new Reader(file, size);
    const head = await reader.bytes(0, 8);
    if (!head) return 0;
    if (head.toString('latin1', 1, 4) === 'PNG') return await pngMetadataBytes(reader, cap);
    if (head[0] === 0xff && head[1] === 0xd8) return await jpegMetadataBytes(reader, cap);
    return 0;
  } finally {
    await file.close();
  }
}
