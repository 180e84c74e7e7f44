import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PdfReading } from './pdf';
import type { PdfJob } from './pdf-worker';

/**
 * PDFs are parsed in child processes, so that a hostile file (a deep object graph, a slow font, a
 * page full of operators, a stream that decodes to gigabytes) costs a process rather than the
 * service: a reading past its time limit or its memory limit ends the process, and the file is
 * answered as unreadable. A process is the unit because pdf.js's decoded streams are array
 * buffers outside the V8 heap, which a worker thread's `resourceLimits` do not bound, and because
 * memory freed inside a long-lived process is not always given back to the system; a process
 * that grew is ended after its reading, so the service's memory returns to its idle figure.
 */
const WORKERS = 2;
const TIME_LIMIT_MS = 20_000;
/**
 * Resident memory one reading process may reach. pdf.js loaded and warm is ~300 MB of it (160 MB
 * idle, ~290 MB after its first file, measured on the samples).
 */
export const PDF_PROCESS_MEMORY_MB = 512;
/** A process that ends a reading above this is not kept for the next one. */
const KEEP_BELOW_MB = 384;
const WATCH_EVERY_MS = 10;
const HEAP_MB = 192;

// Built (`npm start`), the reading process is a bundle beside the service's (src/build/servers.ts);
// from the TypeScript sources (tests, `npm run service`) it runs through tsx.
const built = import.meta.url.endsWith('.js');
const entry = fileURLToPath(new URL(built ? './pdf-worker.js' : './pdf-worker.ts', import.meta.url));
const loader = built ? ['--enable-source-maps'] : ['--import', import.meta.resolve('tsx')];

/** Resident memory of a process in MB, from /proc (0 where /proc cannot be read). */
export function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]);
    return (pages * 4096) / (1024 * 1024);
  } catch {
    return 0;
  }
}

/** A reading process and whether it has loaded pdf.js. */
type Reader = ChildProcess & { ready?: Promise<boolean> };
/** Time a new process may take to load pdf.js (much longer than a reading on a busy machine). */
const START_LIMIT_MS = 120_000;

function startWorker(): Reader {
  const worker: Reader = fork(entry, [], {
    execArgv: [...loader, `--max-old-space-size=${HEAP_MB}`],
    // Dates in the PDF facts survive the trip.
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  worker.ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), START_LIMIT_MS);
    timer.unref();
    worker.once('message', () => resolve(true));
    worker.once('exit', () => resolve(false));
  });
  return worker;
}

const idle: Reader[] = [];
const all = new Set<Reader>();
let running = 0;

function track(worker: Reader) {
  all.add(worker);
  worker.once('exit', () => {
    all.delete(worker);
    const at = idle.indexOf(worker);
    if (at !== -1) idle.splice(at, 1);
  });
  return worker;
}

/** Keeps a process for the next reading; an idle one does not keep the service alive. */
function park(worker: Reader) {
  worker.unref();
  (worker as unknown as { channel?: { unref(): void } }).channel?.unref();
  idle.push(worker);
}

interface Task {
  job: PdfJob;
  timeLimitMs: number;
  resolve: (reading: PdfReading) => void;
}
const queue: Task[] = [];

function run(task: Task) {
  running++;
  const worker = idle.pop() ?? track(startWorker());
  worker.ref();
  (worker as unknown as { channel?: { ref(): void } }).channel?.ref();
  void worker.ready!.then((ready) => {
    if (ready) read(worker, task);
    else {
      worker.kill('SIGKILL');
      done(task, { ok: false, reason: 'corrupt', message: 'the PDF reader could not start' });
    }
  });
}

function done(task: Task, reading: PdfReading) {
  running--;
  task.resolve(reading);
  const next = queue.shift();
  if (next) run(next);
}

function read(worker: Reader, task: Task) {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  let settled = false;
  const finish = (reading: PdfReading, keep: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    clearInterval(watch);
    worker.removeAllListeners('message');
    worker.removeAllListeners('error');
    worker.off('exit', onExit);
    if (keep && worker.exitCode === null && residentMb(worker.pid) < KEEP_BELOW_MB) park(worker);
    else worker.kill('SIGKILL');
    done(task, reading);
  };
  const timer = setTimeout(
    () => finish({ ok: false, reason: 'corrupt', message: 'the PDF takes too long to read' }, false),
    task.timeLimitMs,
  );
  const watch = setInterval(() => {
    if (residentMb(worker.pid) > PDF_PROCESS_MEMORY_MB) {
      finish({ ok: false, reason: 'corrupt', message: 'the PDF needs more memory than allowed' }, false);
    }
  }, WATCH_EVERY_MS);
  const onExit = () => finish({ ok: false, reason: 'corrupt', message: 'the PDF cannot be read' }, false);
  worker.once('message', (reading: PdfReading) => finish(reading, true));
  worker.once('error', onExit);
  worker.once('exit', onExit);
  worker.send(task.job);
}

/** Reads a PDF (≤ 50 MB, checked by the route) in a child process; never throws for bad bytes. */
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

/** Starts a process ahead of the first PDF (pdf.js takes a few seconds to load), once per process. */
export function warmPdfReader() {
  if (idle.length === 0 && running === 0) park(track(startWorker()));
}

// The reading processes go with the service, however it ends.
process.once('exit', () => {
  for (const worker of all) worker.kill('SIGKILL');
});
