import { Transform, type TransformCallback } from 'node:stream';
import { allowedFormats, sniffFormat, type FileField } from '@/shared/file-format';
import { MAX_FILE_BYTES, MAX_FILES_PER_REQUEST, MAX_SEND_INPUT_BODY_BYTES } from '@/shared/limits';
import { BffHttpError, bodyTooLarge } from '../errors';
import { streamed } from './upload-gc';

const SNIFF_BYTES = 1024;
// The descriptors' JSON (at most 32, custom fields included): kept to pair with the answer's results.
const MAX_INPUTS_FIELD_BYTES = 256 * 1024;
const MAX_PART_HEADER_BYTES = 16 * 1024;
// Four socket reads; the most a guarded upload holds in this stage is twice that (both sides).
const STREAM_HIGH_WATER_MARK = 256 * 1024;

export const guardErrors = {
  bodyTooLarge,
  fileTooLarge: (field: string) =>
    new BffHttpError(413, {
      code: 'file_too_large',
      type: 'ValidationError',
      message: `a file in field "${field}" is over ${MAX_FILE_BYTES} bytes`,
    }),
  tooManyFiles: () =>
    new BffHttpError(413, {
      code: 'too_many_parts',
      type: 'ValidationError',
      message: 'too many files in the form',
    }),
  badFormat: (field: string) =>
    new BffHttpError(415, {
      code: 'unsupported_format',
      type: 'ValidationError',
      message: `a file in field "${field}" is not one of ${allowedFormats[field as FileField].join(', ')} (judged by its content)`,
    }),
  badForm: () =>
    new BffHttpError(400, {
      code: 'request.badMultipart',
      type: 'IntegrationError',
      message: 'The multipart body is malformed.',
    }),
};

interface Part {
  field: string;
  checked: FileField | null;
  /** The `inputs` text field, kept (it is small) so that the answer's results can be paired with it. */
  keep: boolean;
  bytes: number;
  sniff: Buffer[];
  sniffed: number;
}

/**
 * Passes a multipart body through unchanged while reading just enough of it to refuse early what
 * the service would refuse anyway: a body over the request limit, a file over 50 MB, too many
 * files, a file whose first bytes are not a format allowed in its field. It never holds more than
 * a part's headers and a file's first kilobyte.
 */
export class MultipartGuard extends Transform {
  bytes = 0;
  failure: BffHttpError | null = null;
  private readonly delimiter: Buffer;
  // The body starts with "--boundary" where later parts have "\r\n--boundary": one search for both.
  private carry = Buffer.from('\r\n');
  private state: 'content' | 'after-delimiter' | 'headers' | 'epilogue' = 'content';
  private part: Part | null = null;
  private files = 0;
  private inputsChunks: Buffer[] = [];
  private inputsBytes = 0;

  constructor(boundary: string) {
    // A socket read is up to 64 KB: with the default 16 KB mark every chunk would make the
    // request pause and resume (a readStop/readStart per chunk). A few chunks of room keep it flowing.
    super({ highWaterMark: STREAM_HIGH_WATER_MARK });
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** The `inputs` field's text as sent (null without one, or past 256 KB). */
  get inputsField(): string | null {
    if (!this.inputsChunks.length || this.inputsBytes > MAX_INPUTS_FIELD_BYTES) return null;
    return Buffer.concat(this.inputsChunks).toString('utf8');
  }

  /** The boundary of a multipart/form-data content type, or null. */
  static boundaryOf(contentType: string): string | null {
    const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
    return match ? (match[1] ?? match[2]) : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    streamed(chunk.length);
    try {
      if (this.bytes > MAX_SEND_INPUT_BODY_BYTES) throw guardErrors.bodyTooLarge();
      if (this.state !== 'epilogue') this.inspect(chunk);
    } catch (error) {
      this.failure = error as BffHttpError;
      callback(this.failure);
      return;
    }
    callback(null, chunk);
  }

  private inspect(chunk: Buffer) {
    const buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = Buffer.alloc(0);
    let pos = 0;
    while (pos <= buf.length) {
      if (this.state === 'content') {
        const at = buf.indexOf(this.delimiter, pos);
        if (at === -1) {
          // Keep what could be the start of a delimiter split across chunks (usually nothing, so
          // that the next chunk is inspected in place rather than copied).
          const safe = this.delimiterPrefixAt(buf, Math.max(pos, buf.length - (this.delimiter.length - 1)));
          if (this.part) this.account(buf.subarray(pos, safe));
          this.carry = Buffer.from(buf.subarray(safe));
          return;
        }
        if (this.part) {
          this.account(buf.subarray(pos, at));
          this.finishPart();
        }
        pos = at + this.delimiter.length;
        this.state = 'after-delimiter';
      } else if (this.state === 'after-delimiter') {
        if (buf.length - pos < 2) {
          this.carry = Buffer.from(buf.subarray(pos));
          return;
        }
        const next = buf.toString('latin1', pos, pos + 2);
        if (next === '--') {
          this.state = 'epilogue';
          return;
        }
        // Transport padding (spaces, tabs) may follow the boundary before its CRLF.
        const eol = buf.indexOf('\r\n', pos);
        if (eol === -1) {
          if (buf.length - pos > 256) throw guardErrors.badForm();
          this.carry = Buffer.from(buf.subarray(pos));
          return;
        }
        pos = eol + 2;
        this.state = 'headers';
      } else if (this.state === 'headers') {
        const end = buf.indexOf('\r\n\r\n', pos);
        // A part with no headers at all has its blank line right away.
        const emptyHeaders = buf.length - pos >= 2 && buf[pos] === 13 && buf[pos + 1] === 10;
        if (end === -1 && !emptyHeaders) {
          if (buf.length - pos > MAX_PART_HEADER_BYTES) throw guardErrors.badForm();
          this.carry = Buffer.from(buf.subarray(pos));
          return;
        }
        const headerEnd = emptyHeaders ? pos : end;
        this.startPart(buf.toString('latin1', pos, headerEnd));
        pos = headerEnd + (emptyHeaders ? 2 : 4);
        this.state = 'content';
      } else {
        return;
      }
    }
  }

  /** The first index from `from` where the rest of `buf` is a beginning of the delimiter, or buf.length. */
  private delimiterPrefixAt(buf: Buffer, from: number) {
    for (let i = buf.indexOf(13, from); i !== -1; i = buf.indexOf(13, i + 1)) {
      if (this.delimiter.subarray(0, buf.length - i).equals(buf.subarray(i))) return i;
    }
    return buf.length;
  }

  private startPart(headers: string) {
    const disposition = /^content-disposition:[^\r\n]*$/im.exec(headers)?.[0] ?? '';
    const field =
      /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? /\bname=([^;\s]+)/i.exec(disposition)?.[1] ?? '';
    const isFile = /\bfilename\*?=/i.test(disposition);
    const checked = isFile && field in allowedFormats ? (field as FileField) : null;
    if (checked && ++this.files > MAX_FILES_PER_REQUEST) throw guardErrors.tooManyFiles();
    const keep = !isFile && field === 'inputs' && this.inputsChunks.length === 0;
    this.part = { field, checked, keep, bytes: 0, sniff: [], sniffed: 0 };
  }

  private account(bytes: Buffer) {
    const part = this.part;
    if (part?.keep && bytes.length && this.inputsBytes <= MAX_INPUTS_FIELD_BYTES) {
      this.inputsBytes += bytes.length;
      if (this.inputsBytes <= MAX_INPUTS_FIELD_BYTES) this.inputsChunks.push(Buffer.from(bytes));
    }
    if (!part?.checked || bytes.length === 0) return;
    part.bytes += bytes.length;
    if (part.bytes > MAX_FILE_BYTES) throw guardErrors.fileTooLarge(part.field);
    if (part.sniffed < SNIFF_BYTES) {
      const take = bytes.subarray(0, SNIFF_BYTES - part.sniffed);
      part.sniff.push(Buffer.from(take));
      part.sniffed += take.length;
      if (part.sniffed >= SNIFF_BYTES) this.checkFormat(part);
    }
  }

  private finishPart() {
    const part = this.part;
    this.part = null;
    if (part?.checked && part.sniffed < SNIFF_BYTES) this.checkFormat(part);
  }

  private checkFormat(part: Part) {
    const field = part.checked!;
    const format = sniffFormat(Buffer.concat(part.sniff));
    part.sniff = [];
    if (!format || !(allowedFormats[field] as readonly string[]).includes(format))
      throw guardErrors.badFormat(field);
  }
}
