import { parentPort } from 'node:worker_threads';
import { pdfjs, readPdfHere } from './pdf';

// The PDF worker: reads one PDF at a time for pdf-reader.ts, off the service's event loop.
export interface PdfJob {
  path: string;
  password?: string;
  textPages: number;
}

// pdf.js loaded at once, so that a worker started ahead of time has it ready for the first file.
void pdfjs().catch(() => undefined);

parentPort!.on('message', (job: PdfJob) => {
  readPdfHere(job.path, job).then(
    (reading) => parentPort!.postMessage(reading),
    () => parentPort!.postMessage({ ok: false, reason: 'corrupt', message: 'the PDF cannot be read' }),
  );
});
