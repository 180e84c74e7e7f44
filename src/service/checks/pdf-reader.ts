import { Worker } from 'node:worker_threads';
import type { PdfReading } from './pdf';
import type { PdfJob } from './pdf-worker';

/**
 * PDFs are parsed in worker threads, so that a hostile file (a deep object graph, a slow font, a
 * page full of operators) holds a worker rather than every other request: a reading that takes
 * longer than its time limit ends the worker, and the file is answered as unreadable.
 */
const WORKERS = 2;
const TIME_LIMIT_MS = 20_000;
// pdf.js's own memory, bounded apart from the service's (inflation bombs are refused before pdf.js parses).
const WORKER_HEAP_MB = 512;

/**
 * Built (`npm start`), the worker is a bundle beside this one (build/servers.ts). From the
 * TypeScript sources (tests, `npm run service`) it runs through tsx, whose loader a worker thread
 * does not inherit on Node 20: the worker registers it before importing its entry point.
 */
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (import.meta.url.endsWith('.js'))
    return new Worker(new URL('./pdf-worker.js', import.meta.url), options);
  const workerUrl = new URL('./pdf-worker.ts', import.meta.url);
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

const idle: Worker[] = [];
let running = 0;

/** Keeps a worker for the next reading; an idle worker does not keep the service alive. */
function park(worker: Worker) {
  worker.unref();
  idle.push(worker);
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
}

interface Task {
  job: PdfJob;
  timeLimitMs: number;
  resolve: (reading: PdfReading) => void;
}
const queue: Task[] = [];

function run(task: Task) {
  running++;
  const worker = idle.pop() ?? startWorker();
  worker.removeAllListeners();
  let settled = false;
  const finish = (reading: PdfReading, keep: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    worker.removeAllListeners();
    if (keep) park(worker);
    else void worker.terminate();
    running--;
    task.resolve(reading);
    const next = queue.shift();
    if (next) run(next);
  };
  const timer = setTimeout(
    () => finish({ ok: false, reason: 'corrupt', message: 'the PDF takes too long to read' }, false),
    task.timeLimitMs,
  );
  worker.ref();
  worker.once('message', (reading: PdfReading) => finish(reading, true));
  worker.once('error', () =>
    finish({ ok: false, reason: 'corrupt', message: 'the PDF cannot be read' }, false),
  );
  worker.once('exit', () =>
    finish({ ok: false, reason: 'corrupt', message: 'the PDF cannot be read' }, false),
  );
  worker.postMessage(task.job);
}

/** Reads a PDF (≤ 50 MB, checked by the route) in a worker thread; never throws for bad bytes. */
export function readPdf(
  path: string,
  options: { password?: string; textPages: number; timeLimitMs?: number },
): Promise<PdfReading> {
  return new Promise((resolve) => {
    const { timeLimitMs = TIME_LIMIT_MS, ...job } = options;
    const task = { job: { path, ...job }, timeLimitMs, resolve };
    if (running < WORKERS) run(task);
    else queue.push(task);
  });
}

/** Starts a worker ahead of the first PDF (pdf.js takes a few seconds to load), once per process. */
export function warmPdfReader() {
  if (idle.length === 0 && running === 0) park(startWorker());
}
