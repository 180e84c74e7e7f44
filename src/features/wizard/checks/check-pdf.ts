import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { sniffFormat } from '@/shared/file-format';
import { MAX_FILE_BYTES } from '@/shared/limits';
import type { ClientCheckCode } from './check-codes';
import { readBytes, readHead } from './read-head';

export type PdfInspection =
  | {
      ok: true;
      /** Whether opening it needs a password (pages are then unknown until checkPdfPassword). */
      encrypted: boolean;
      pageCount: number | null;
    }
  | { ok: false; reason: ClientCheckCode };

type Opened =
  { ok: true; pageCount: number } | { ok: false; why: 'needPassword' | 'wrongPassword' | 'broken' };

// pdf.js is large: it loads with the first PDF, and its worker is a file of this app (no CDN).
// One worker serves every check, so a password retry does not start pdf.js again.
let shared: Promise<{ lib: typeof import('pdfjs-dist'); worker: import('pdfjs-dist').PDFWorker }> | null =
  null;
function pdfjs() {
  shared ??= import('pdfjs-dist').then((lib) => {
    if (!lib.GlobalWorkerOptions.workerSrc) lib.GlobalWorkerOptions.workerSrc = pdfWorkerUrl;
    return { lib, worker: new lib.PDFWorker() };
  });
  return shared;
}

async function open(file: Blob, password?: string): Promise<Opened> {
  const { lib, worker } = await pdfjs();
  // pdf.js hands the buffer to its worker (detaching it), so each attempt reads its own copy.
  const task = lib.getDocument({
    worker,
    data: await readBytes(file),
    password,
    isEvalSupported: false,
    stopAtErrors: false,
    disableFontFace: true,
  });
  try {
    const doc = await task.promise;
    return { ok: true, pageCount: doc.numPages };
  } catch (error) {
    const e = error as { name?: string; code?: number };
    if (e.name === 'PasswordException') {
      return {
        ok: false,
        why: e.code === lib.PasswordResponses.INCORRECT_PASSWORD ? 'wrongPassword' : 'needPassword',
      };
    }
    return { ok: false, why: 'broken' };
  } finally {
    await task.destroy();
  }
}

/**
 * Reads a PDF the way the service will: a PDF by its bytes, at most 50 MB, readable, and whether a
 * password is needed. With `maxPages` (a flow that takes one-page documents), more pages is refused.
 */
export async function inspectPdf(file: Blob, opts: { maxPages?: number } = {}): Promise<PdfInspection> {
  if (sniffFormat(await readHead(file)) !== 'pdf') return { ok: false, reason: 'client.wrongFormat' };
  if (file.size > MAX_FILE_BYTES) return { ok: false, reason: 'client.tooBig' };
  const opened = await open(file);
  if (!opened.ok) {
    if (opened.why === 'broken') return { ok: false, reason: 'client.unreadable' };
    return { ok: true, encrypted: true, pageCount: null };
  }
  if (opts.maxPages !== undefined && opened.pageCount > opts.maxPages) {
    return { ok: false, reason: 'client.tooManyPages' };
  }
  return { ok: true, encrypted: false, pageCount: opened.pageCount };
}

/** Whether `password` opens the PDF (and then its page count). */
export async function checkPdfPassword(
  file: Blob,
  password: string,
): Promise<{ ok: boolean; pageCount?: number }> {
  const opened = await open(file, password);
  return opened.ok ? { ok: true, pageCount: opened.pageCount } : { ok: false };
}
