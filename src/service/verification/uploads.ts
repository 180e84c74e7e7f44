import fs from 'node:fs';
import { once } from 'node:events';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { allowedFormats, sniffFormat, type FileField, type FileFormat } from '@/shared/file-format';
import { MAX_FILE_BYTES, MAX_FILES_PER_REQUEST } from '@/shared/limits';
import type { StoredFile } from '@/checks/inputs/node/types';
import { integrationError, ServiceError, tooLarge, unsupportedFormat } from './service-error';
import { isStorageError, type MediaStore } from '../storage/media-store';

export interface UploadedFile extends StoredFile {
  field: FileField;
}

export interface ReceivedForm {
  inputs: string | null;
  files: UploadedFile[];
}

const SNIFF_BYTES = 1024;
const MAX_INPUTS_FIELD_BYTES = 256 * 1024;

const isFileField = (name: string): name is FileField => Object.hasOwn(allowedFormats, name);

/**
 * Counts the bytes and sniffs the format from the first ones, failing the pipeline as soon as a
 * file is too big or not of an allowed format, so that its remaining bytes are never read.
 */
function guard(field: FileField, onFormat: (format: FileFormat) => void) {
  let size = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const decide = (final: boolean) => {
    if (!head || (!final && head.length < SNIFF_BYTES)) return;
    const format = sniffFormat(head);
    head = null;
    if (!format || !(allowedFormats[field] as readonly FileFormat[]).includes(format)) {
      throw unsupportedFormat(
        `a file in field "${field}" is not one of ${allowedFormats[field].join(', ')} (judged by its content)`,
      );
    }
    onFormat(format);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        size += chunk.length;
        if (size > MAX_FILE_BYTES)
          throw tooLarge(`a file in field "${field}" is over ${MAX_FILE_BYTES} bytes`);
        if (head) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
        decide(false);
        callback(null, chunk);
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback) {
      try {
        decide(true);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

const discard = () =>
  new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });

/**
 * Streams a send-input form file by file into temporary files (never a whole file in memory).
 * The `inputs` field may come before or after the files. On any failure every temporary file of
 * the request is deleted before the error propagates.
 */
export async function receiveForm(request: FastifyRequest, store: MediaStore): Promise<ReceivedForm> {
  if (!request.isMultipart()) throw integrationError('the body must be a multipart form', 'not_multipart');
  const form: ReceivedForm = { inputs: null, files: [] };
  let pendingTmp: string | null = null;
  let pendingWrite: fs.WriteStream | null = null;
  try {
    const parts = request.parts({
      limits: {
        fileSize: MAX_FILE_BYTES + 1,
        files: MAX_FILES_PER_REQUEST,
        fields: 16,
        parts: MAX_FILES_PER_REQUEST + 16,
        fieldSize: MAX_INPUTS_FIELD_BYTES,
        headerPairs: 64,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname !== 'inputs') continue;
        if (part.valueTruncated) throw integrationError('the inputs field is too long');
        if (form.inputs !== null) throw integrationError('the inputs field appears more than once');
        form.inputs = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (!isFileField(part.fieldname)) {
        // A file no descriptor can name is discarded (wire contract §4).
        await pipeline(part.file, discard());
        continue;
      }
      const tmp = store.tmpPath();
      pendingTmp = tmp;
      const sniffed: { format?: FileFormat } = {};
      const counter = guard(part.fieldname, (f) => (sniffed.format = f));
      pendingWrite = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
      await pipeline(part.file, counter, pendingWrite);
      const size = (await fs.promises.stat(tmp)).size;
      pendingTmp = null;
      pendingWrite = null;
      form.files.push({
        field: part.fieldname,
        filename: part.filename ?? '',
        path: tmp,
        size,
        format: sniffed.format!,
      });
    }
    if (form.files.length) store.failing = false;
    return form;
  } catch (error) {
    // A refusal in the first chunk can come before the file is even opened: removing it then would
    // leave the file the stream opens a moment later, so the stream is let close first.
    if (pendingWrite && !pendingWrite.closed) await once(pendingWrite, 'close').catch(() => undefined);
    await discardFiles([...form.files.map((f) => f.path), ...(pendingTmp ? [pendingTmp] : [])]);
    if (error instanceof ServiceError || (error as { statusCode?: number }).statusCode) throw error;
    // A full disk is the service's trouble, answered by the error handler (507), not the client's.
    if (isStorageError(error)) throw error;
    // busboy's own complaints (bad boundary, a part cut short) are the client's malformed body.
    throw integrationError(`malformed multipart body: ${(error as Error).message}`, 'malformed_multipart');
  }
}

export async function discardFiles(paths: string[]) {
  await Promise.all(paths.map((p) => fs.promises.rm(p, { force: true })));
}
