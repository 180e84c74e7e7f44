import { LIGHT_DECODE_LIMITS, pdfjs, readPdfHere, type PdfReading } from './pdf';

// A PDF reading process: reads one PDF at a time for pdf-reader.ts, away from the service.
export interface PdfJob {
  path: string;
  password?: string;
  textPages: number;
  /** Characters of text one page may hold. */
  pageTextChars: number;
  /** Read on the light reader: past its decode bounds the answer is `heavy` (read it elsewhere). */
  light: boolean;
}

/** A reading, or (on the light reader) that the file is past the light bounds. */
export type PdfWorkerAnswer = PdfReading | { ok: false; reason: 'heavy' };

// Named apart, as pdf.js ships no types for it.
const PDFJS_WORKER = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

// pdf.js loaded at once, with its parsing half (which pdf.js otherwise imports on the first file,
// a few seconds), so that a process started ahead of time is ready for the first file.
void pdfjs()
  .then(async () => {
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import(PDFJS_WORKER);
  })
  .catch(() => undefined)
  // The reading's time limit starts at this message, not while pdf.js loads on a busy machine.
  .finally(() => process.send!({ ready: true }));

const collect = (globalThis as { gc?: () => void }).gc;

process.on('message', (job: PdfJob) => {
  readPdfHere(job.path, { ...job, light: job.light ? LIGHT_DECODE_LIMITS : undefined })
    .catch((): PdfReading => ({ ok: false, reason: 'corrupt', message: 'the PDF cannot be read' }))
    .then((reading) => {
      // The reading's garbage collected before the answer: pdf-reader.ts keeps or ends this process
      // by its resident memory, which should not count what is already free.
      collect?.();
      process.send!(reading);
    });
});
// The service gone (its channel closed): nothing left to read for.
process.on('disconnect', () => process.exit(0));
