import { readFile } from 'node:fs/promises';
import { decodesTooMuch, type DecodeLimits } from './pdf-streams';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjsModule: Promise<PdfJs> | undefined;
// The legacy build runs in Node; loaded lazily so routes that never see a PDF never pay for it.
export const pdfjs = () => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/** Pages whose text is read at most (a statement or custom document longer than this is cut). */
export const MAX_TEXT_PAGES = 20;
/** Text read at most from one file, all pages together. */
export const MAX_TEXT_CHARS = 200_000;
/** Text one page may hold (`PDF_PAGE_TEXT_CHARS` sets it): a dense statement page has ~10,000 characters. */
export const MAX_PAGE_TEXT_CHARS = 50_000;

/** Producers and creators of PDF editors; a statement they touched is not the bank's original. */
export const EDITOR_PATTERN =
  /ilovepdf|smallpdf|sejda|pdfescape|pdf-?xchange|foxit\s*phantom|nitro|pdfelement|wondershare|pdffiller|dochub|canva|photoshop|illustrator|inkscape|libreoffice\s*draw|acrobat\s*pro|pdf\s*editor|pdf\s*studio|master\s*pdf|soda\s*pdf|pdf24|formswift/i;
/** A ModDate later than CreationDate by more than this means the file was saved again. */
export const MOD_DATE_TOLERANCE_MS = 60_000;

/**
 * Bounds on what the zlib streams of one PDF may inflate to. pdfjs inflates a stream whole, so a
 * 50 MB "PDF bomb" could otherwise ask for tens of gigabytes; such a file is refused first.
 */
export const MAX_INFLATED_STREAM_BYTES = 64 * 1024 * 1024;
export const MAX_INFLATED_TOTAL_BYTES = 256 * 1024 * 1024;
/**
 * What the streams of a file read on the light reader (pdf-reader.ts) may decode to: a
 * statement's pages of text, its fonts and a logo come to well under a megabyte.
 */
export const LIGHT_DECODE_LIMITS = { stream: 8 * 1024 * 1024, total: 16 * 1024 * 1024 };

/**
 * True when the file's streams decode past the bounds, whatever their line endings and filter
 * chains; measured by counting, never by holding the output (`pdf-streams.ts`).
 */
export const inflatesTooMuch = (
  bytes: Uint8Array,
  limits = { stream: MAX_INFLATED_STREAM_BYTES, total: MAX_INFLATED_TOTAL_BYTES },
): Promise<boolean> => decodesTooMuch(bytes, limits);

export interface PdfInfo {
  pageCount: number;
  producer?: string;
  creator?: string;
  keywords?: string;
  subject?: string;
  creationDate?: Date;
  modDate?: Date;
  linearized: boolean;
  /** `%%EOF` markers in the file: one per save; a second one is an incremental update. */
  eofCount: number;
}

export type OpenedPdf =
  | { ok: true; doc: PdfDocument; info: PdfInfo }
  | { ok: false; reason: 'corrupt' | 'needPassword' | 'wrongPassword'; message: string }
  | { ok: false; reason: 'heavy' };

const countEof = (bytes: Uint8Array) => {
  const needle = Buffer.from('%%EOF');
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let i = buffer.indexOf(needle); i !== -1; i = buffer.indexOf(needle, i + needle.length)) count++;
  return count;
};

const str = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * Opens a PDF (≤ 50 MB, checked by the route) with pdfjs; never throws for bad bytes. With `light`
 * bounds, a file whose streams decode past them is answered `heavy` (not refused: the full bounds
 * decide, on another reader).
 */
export async function openPdf(path: string, password?: string, light?: DecodeLimits): Promise<OpenedPdf> {
  const bytes = new Uint8Array(await readFile(path));
  const eofCount = countEof(bytes);
  if (light && (await inflatesTooMuch(bytes, light))) return { ok: false, reason: 'heavy' };
  if (await inflatesTooMuch(bytes)) {
    return {
      ok: false,
      reason: 'corrupt',
      message: 'the PDF expands to more data than a statement or document can hold',
    };
  }
  const lib = await pdfjs();
  const task = lib.getDocument({
    // pdfjs may transfer (detach) the buffer: every byte check on it is done by now.
    data: bytes,
    password,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const e = error as { name?: string; code?: number };
    if (e?.name === 'PasswordException') {
      return e.code === lib.PasswordResponses.INCORRECT_PASSWORD
        ? { ok: false, reason: 'wrongPassword', message: 'the password does not open the PDF' }
        : { ok: false, reason: 'needPassword', message: 'the PDF is protected by a password' };
    }
    return { ok: false, reason: 'corrupt', message: 'the PDF cannot be read' };
  }
  try {
    const { info: raw } = (await doc.getMetadata()) as unknown as { info: Record<string, unknown> };
    const date = (value: unknown) => {
      const text = str(value);
      return text ? (lib.PDFDateString.toDateObject(text) ?? undefined) : undefined;
    };
    const info: PdfInfo = {
      pageCount: doc.numPages,
      producer: str(raw.Producer),
      creator: str(raw.Creator),
      keywords: str(raw.Keywords),
      subject: str(raw.Subject),
      creationDate: date(raw.CreationDate),
      modDate: date(raw.ModDate),
      linearized: raw.IsLinearized === true,
      eofCount,
    };
    return { ok: true, doc, info };
  } catch {
    await doc.destroy().catch(() => undefined);
    return { ok: false, reason: 'corrupt', message: 'the PDF structure cannot be read' };
  }
}

export const closePdf = (doc: PdfDocument) => doc.destroy().catch(() => undefined);

/** A page with more text than a statement or a document has (`pdfLines`). */
export class TooMuchText extends Error {}

/**
 * The text items of a page, read as pdf.js streams them: past `maxChars` characters the reading
 * stops (and the document, destroyed by the caller, stops its parser), so a page of megabytes of
 * text costs its first chunks only.
 */
async function pageItems(page: Awaited<ReturnType<PdfDocument['getPage']>>, maxChars: number) {
  const reader = page.streamTextContent().getReader();
  const items: { str: string; x: number; y: number }[] = [];
  let chars = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return items;
    for (const item of (value as { items: unknown[] }).items) {
      const text = item as { str?: unknown; transform?: number[] };
      if (typeof text.str !== 'string' || !text.transform) continue;
      chars += text.str.length;
      if (text.str.trim().length > 0)
        items.push({ str: text.str, x: text.transform[4], y: text.transform[5] });
    }
    if (chars > maxChars) {
      const tooMuch = new TooMuchText(`a page of the PDF holds more than ${maxChars} characters of text`);
      // pdf.js wants an Error as the reason.
      await reader.cancel(tooMuch).catch(() => undefined);
      throw tooMuch;
    }
  }
}

/**
 * Text of the first pages as lines: items grouped by baseline (within 2 units), left to right,
 * joined with single spaces. A page with more than `maxPageChars` characters throws `TooMuchText`.
 */
export async function pdfLines(
  doc: PdfDocument,
  maxPages = MAX_TEXT_PAGES,
  maxPageChars = MAX_PAGE_TEXT_CHARS,
): Promise<string[]> {
  const lines: string[] = [];
  let chars = 0;
  for (let n = 1; n <= Math.min(doc.numPages, maxPages) && chars < MAX_TEXT_CHARS; n++) {
    const page = await doc.getPage(n);
    const items = (await pageItems(page, maxPageChars)).sort((a, b) => b.y - a.y || a.x - b.x);
    let current: { y: number; parts: { x: number; str: string }[] } | undefined;
    const flush = () => {
      if (!current) return;
      const line = current.parts
        .sort((a, b) => a.x - b.x)
        .map((p) => p.str.trim())
        .join(' ')
        .replace(/\s+/g, ' ');
      lines.push(line);
      chars += line.length;
    };
    for (const item of items) {
      if (current && Math.abs(current.y - item.y) <= 2) current.parts.push(item);
      else {
        flush();
        current = { y: item.y, parts: [item] };
      }
    }
    flush();
    page.cleanup();
  }
  return lines;
}

/** The edit trace found in a PDF, or null (rules in README.md, "Bank statements"). */
export function editTrace(info: PdfInfo): string | null {
  const tool = [info.producer, info.creator].find((value) => value && EDITOR_PATTERN.test(value));
  if (tool) return 'the PDF was produced by an editing tool';
  if (info.eofCount > (info.linearized ? 2 : 1))
    return 'the PDF was changed after it was created (incremental update)';
  if (
    info.creationDate &&
    info.modDate &&
    info.modDate.getTime() - info.creationDate.getTime() > MOD_DATE_TOLERANCE_MS
  ) {
    return 'the PDF was modified after it was created';
  }
  return null;
}

/**
 * What the service needs of a PDF: its facts and the text of its first pages, or why it cannot be
 * read. `notChecked`: the reading could not be done (out of time, no reader), which says nothing
 * of the file; it is never taken as passed.
 */
export type PdfReading =
  | { ok: true; info: PdfInfo; lines: string[] }
  | { ok: false; reason: 'corrupt' | 'needPassword' | 'wrongPassword' | 'notChecked'; message: string };

/** Opens, reads and closes a PDF in this thread (the PDF worker's job; see pdf-reader.ts). */
export async function readPdfHere(
  path: string,
  options: { password?: string; textPages: number; pageTextChars?: number; light?: DecodeLimits },
): Promise<PdfReading | { ok: false; reason: 'heavy' }> {
  const opened = await openPdf(path, options.password, options.light);
  if (!opened.ok) return opened;
  try {
    const lines =
      options.textPages > 0 ? await pdfLines(opened.doc, options.textPages, options.pageTextChars) : [];
    return { ok: true, info: opened.info, lines };
  } catch (error) {
    if (error instanceof TooMuchText) return { ok: false, reason: 'corrupt', message: error.message };
    return { ok: false, reason: 'corrupt', message: 'the PDF text cannot be read' };
  } finally {
    // Also ends a text extraction left running by a page with too much text.
    await closePdf(opened.doc);
  }
}
