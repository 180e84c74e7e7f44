import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { PdfReading } from './pdf';
import type { PdfJob, PdfWorkerAnswer } from './pdf-worker';
import { FairQueue } from '@/checks/inputs/node/fair-queue';

/**
 * PDFs are parsed in child processes, so that a hostile file (a deep object graph, a slow font, a
 * page full of operators, a stream that decodes to gigabytes) costs a process rather than the
 * service: a reading past its time limit or its memory limit ends the process. A process is the
 * unit because pdf.js's decoded streams are array buffers outside the V8 heap, which a worker
 * thread's `resourceLimits` do not bound, and because memory freed inside a long-lived process is
 * not always given back to the system; a process that grew is ended after its reading, so the
 * service's memory returns to its idle figure.
 *
 * Two readings run at once. One of them is kept for light files (issue 21: four heavy PDFs held
 * both readers and a valid statement waited 23 s behind them): a file of at most
 * LIGHT_FILE_BYTES is read there under light bounds (its streams decoding to at most
 * LIGHT_DECODE_LIMITS of pdf.ts, a quarter of the time limit); past them it goes back in line for the other
 * reader, which reads it under the full bounds. Readings wait in turns by verification
 * (`src/checks/inputs/node/fair-queue.ts`).
 */
const READERS = 2;
/** Files of at most this size are tried on the light reader first. */
export const LIGHT_FILE_BYTES = 2 * 1024 * 1024;

/** Bounds of one reading, from the settings (`PDF_*`, service config). */
export interface PdfReadingLimits {
  /** A reading past this is ended, and the file is answered as not checked (a review). */
  timeLimitMs: number;
  /** Pages whose text is read at most. */
  textPages: number;
  /** Characters of text one page may hold; a page with more is not a statement or document. */
  pageTextChars: number;
}
export const DEFAULT_PDF_LIMITS: PdfReadingLimits = {
  timeLimitMs: 15_000,
  textPages: 20,
  pageTextChars: 50_000,
};
let limits = DEFAULT_PDF_LIMITS;
/** Sets the bounds of the readings to come (the service does at start, from its settings). */
export function configurePdfReading(next: PdfReadingLimits) {
  limits = next;
}

/**
 * Resident memory one reading process may reach. pdf.js loaded and warm is ~300 MB of it (160 MB
 * idle, ~290 MB after its first file, measured on the samples).
 */
export const PDF_PROCESS_MEMORY_MB = 512;
/**
 * A process that ends a reading above this, and that grew by more than KEEP_GROWTH_MB since it
 * was ready, is not kept for the next one. The growth counts too because a process's own start
 * differs: one compiling the sources through tsx (tests, `npm run service`) is ready at ~400 MB,
 * and ending it after every reading would make each reading wait seconds for a new one.
 */
const KEEP_BELOW_MB = 384;
const KEEP_GROWTH_MB = 96;
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
type Reader = ChildProcess & { ready?: Promise<boolean>; readyMb?: number; idleTimer?: NodeJS.Timeout };
/** A second idle process is ended after this long idle (the first one stays, ready). */
const SPARE_IDLE_MS = 20_000;
/** Time a new process may take to load pdf.js (much longer than a reading on a busy machine). */
const START_LIMIT_MS = 120_000;

function startWorker(): Reader {
  const worker: Reader = fork(entry, [], {
    // --expose-gc: the process collects after each reading, so that its resident memory, by which
    // it is kept or ended, is what it holds rather than garbage not yet collected.
    execArgv: [...loader, `--max-old-space-size=${HEAP_MB}`, '--expose-gc'],
    // Dates in the PDF facts survive the trip.
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  worker.ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), START_LIMIT_MS);
    timer.unref();
    worker.once('message', () => {
      worker.readyMb = residentMb(worker.pid);
      resolve(true);
    });
    worker.once('exit', () => resolve(false));
  });
  return worker;
}

const idle: Reader[] = [];
const all = new Set<Reader>();

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
  // One process stays ready; another one idle this long is ended, so its memory goes back.
  clearTimeout(worker.idleTimer);
  worker.idleTimer = setTimeout(() => {
    if (idle.includes(worker) && idle.length > 1) {
      idle.splice(idle.indexOf(worker), 1);
      worker.kill('SIGKILL');
    }
  }, SPARE_IDLE_MS);
  worker.idleTimer.unref();
}

/** An idle process kept for the next reading, its idle timer stopped. */
function unpark(): Reader | undefined {
  const worker = idle.pop();
  if (worker) clearTimeout(worker.idleTimer);
  return worker;
}

interface Task {
  owner: string;
  job: Omit<PdfJob, 'light' | 'pageTextChars'>;
  timeLimitMs: number;
  /** Small enough to be tried on the light reader (and not yet found heavy there). */
  light: boolean;
  resolve: (reading: PdfReading) => void;
}
/** Files small enough for the light reader, and the others (or found heavy there). */
const lightQueue = new FairQueue<Task>();
const heavyQueue = new FairQueue<Task>();
let lightRunning = 0;
let generalRunning = 0;

/** Starts what the free readers can take: the light one light files only, the other anything. */
function dispatch() {
  while (lightRunning < 1) {
    const task = lightQueue.shift();
    if (!task) break;
    lightRunning++;
    run(task, true);
  }
  while (generalRunning < READERS - 1) {
    const task = heavyQueue.shift() ?? lightQueue.shift();
    if (!task) break;
    generalRunning++;
    run(task, false);
  }
}

function run(task: Task, onLight: boolean) {
  const worker = unpark() ?? track(startWorker());
  worker.ref();
  (worker as unknown as { channel?: { ref(): void } }).channel?.ref();
  void worker.ready!.then((ready) => {
    if (ready) read(worker, task, onLight);
    else {
      worker.kill('SIGKILL');
      done(task, onLight, { ok: false, reason: 'notChecked', message: 'the PDF reader could not start' });
    }
  });
}

function done(task: Task, onLight: boolean, answer: PdfWorkerAnswer | 'tooSlowForLight') {
  if (onLight) lightRunning--;
  else generalRunning--;
  if (answer === 'tooSlowForLight' || (!answer.ok && answer.reason === 'heavy')) {
    // Past the light bounds: read again under the full ones, in its verification's turn.
    heavyQueue.push(task.owner, { ...task, light: false });
  } else task.resolve(answer as PdfReading);
  dispatch();
}

function read(worker: Reader, task: Task, onLight: boolean) {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  let settled = false;
  const finish = (answer: PdfWorkerAnswer | 'tooSlowForLight', keep: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    clearInterval(watch);
    worker.removeAllListeners('message');
    worker.removeAllListeners('error');
    worker.off('exit', onExit);
    const mb = residentMb(worker.pid);
    const grown = mb >= KEEP_BELOW_MB && mb - (worker.readyMb ?? 0) > KEEP_GROWTH_MB;
    if (keep && worker.exitCode === null && !grown) park(worker);
    else {
      worker.kill('SIGKILL');
      // A process loads pdf.js for seconds: one is started now rather than when the next file comes.
      if (idle.length === 0 && all.size <= READERS) park(track(startWorker()));
    }
    done(task, onLight, answer);
  };
  const timeLimitMs = onLight ? Math.max(1, Math.floor(task.timeLimitMs / 4)) : task.timeLimitMs;
  const timer = setTimeout(
    () =>
      // The time a reading takes depends on the machine's load as much as on the file: past it the
      // file is not refused but left unchecked, which sends the verification to a review.
      finish(
        onLight
          ? 'tooSlowForLight'
          : { ok: false, reason: 'notChecked', message: 'the PDF takes too long to read' },
        false,
      ),
    timeLimitMs,
  );
  const watch = setInterval(() => {
    if (residentMb(worker.pid) > PDF_PROCESS_MEMORY_MB) {
      finish({ ok: false, reason: 'corrupt', message: 'the PDF needs more memory than allowed' }, false);
    }
  }, WATCH_EVERY_MS);
  const onExit = () => finish({ ok: false, reason: 'corrupt', message: 'the PDF cannot be read' }, false);
  worker.once('message', (answer: PdfWorkerAnswer) => finish(answer, true));
  worker.once('error', onExit);
  worker.once('exit', onExit);
  const job: PdfJob = { ...task.job, pageTextChars: limits.pageTextChars, light: onLight };
  worker.send(job);
}

/**
 * Reads a PDF (≤ 50 MB, checked by the route) in a child process; never throws for bad bytes.
 * `owner` (the verification) decides whose turn it is when readings wait.
 */
export async function readPdf(
  path: string,
  options: { password?: string; textPages: number; timeLimitMs?: number; owner?: string },
): Promise<PdfReading> {
  const { timeLimitMs = limits.timeLimitMs, owner = '', password, textPages } = options;
  const size = await stat(path).then(
    (s) => s.size,
    () => Infinity,
  );
  return new Promise((resolve) => {
    const task: Task = {
      owner,
      job: {
        path,
        ...(password !== undefined ? { password } : {}),
        textPages: Math.min(textPages, limits.textPages),
      },
      timeLimitMs,
      light: size <= LIGHT_FILE_BYTES,
      resolve,
    };
    (task.light ? lightQueue : heavyQueue).push(owner, task);
    dispatch();
  });
}

/** Starts a process ahead of the first PDF (pdf.js takes a few seconds to load), once per process. */
export function warmPdfReader() {
  if (all.size === 0) park(track(startWorker()));
}

// The reading processes go with the service, however it ends.
process.once('exit', () => {
  for (const worker of all) worker.kill('SIGKILL');
});
