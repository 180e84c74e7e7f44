import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { BASE_DECODE_BYTES, DecodeBudget, decodeWeight } from '@/checks/image/node/decode-budget';
import type { ImageJob, InspectedImage } from '@/checks/image/node/image';
import { FairQueue } from '@/checks/inputs/node/fair-queue';
import { startWorkerThread } from './worker-thread';

/**
 * The image checks run in a pool of worker threads, one per core: decoding is sharp's (off the
 * event loop anyway), but the metrics and the PDF417 reader are JavaScript and wasm that would
 * otherwise hold the event loop for tens of milliseconds per image.
 *
 * Images wait in turns by verification (FairQueue, as PDF readings do), each within the decode
 * budget (decode-budget.ts), and each has a time of its own once started: one verification's
 * files, however slow, hold at most the slots they are running in, for at most that time, and
 * never make another verification's image wait behind all of them.
 */
const SIZE = Math.max(1, availableParallelism());
const unusable: InspectedImage = { ok: false, reason: 'the image pixels cannot be decoded' };

/**
 * Time one image may take in a worker once started: a photo's decode and measures take well
 * under a second (a 100 MP baseline JPEG ~1 s on a loaded core). Past it the worker is ended, so
 * its decode stops with it, and a fresh one takes the next image.
 */
export const IMAGE_TIME_LIMIT_MS = 20_000;

/** A worker that has not started its image this long after it was posted is ended. */
const WORKER_START_LIMIT_MS = 60_000;

/**
 * An image worker idle this long is ended: what its decodes and the barcode reader's wasm memory
 * grew to (wasm memory never shrinks) goes back to the system after a burst, and the next image
 * starts a fresh worker (about 100 ms).
 */
const IDLE_WORKER_MS = 20_000;

interface Slot {
  worker: Worker;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
}

/** How an image waits and runs. */
export interface ImageRun {
  /** Whose image it is (the verification): images wait in turns by owner. */
  owner?: string;
  /** Aborted: the image is dropped from the line, or its worker ended (the check timed out). */
  signal?: AbortSignal;
  /** Its time once started (IMAGE_TIME_LIMIT_MS). */
  timeLimitMs?: number;
}

interface Task {
  job: ImageJob;
  weight: number;
  timeLimitMs: number;
  /** Answers the image once (later answers are ignored). */
  settle: (result: InspectedImage) => void;
  settled: boolean;
  /** What an abort does now: drop it from the line, or end its worker. */
  onAbort: () => void;
}

const slots: Slot[] = [];
const queue = new FairQueue<Task>();
const budget = new DecodeBudget();
/** An image taken from the line whose share of the budget is not free yet: the next to start. */
let held: Task | undefined;
let nextId = 1;

function newSlot(): Slot {
  const slot: Slot = { worker: startWorkerThread('image-worker'), busy: false };
  slot.worker.unref();
  slot.worker.once('exit', () => {
    const at = slots.indexOf(slot);
    if (at !== -1) slots.splice(at, 1);
  });
  slots.push(slot);
  return slot;
}

function retire(slot: Slot) {
  clearTimeout(slot.idleTimer);
  const at = slots.indexOf(slot);
  if (at !== -1) slots.splice(at, 1);
  void slot.worker.terminate();
}

/**
 * Starts waiting images while a slot and the budget allow. An image is taken from the line only
 * when a slot is free, so that the line's turns are those of the moment the slot frees.
 */
function dispatch() {
  for (;;) {
    const slot = slots.find((s) => !s.busy) ?? (slots.length < SIZE ? newSlot() : undefined);
    if (!slot) return;
    while (!held || held.settled) {
      held = queue.shift();
      if (!held) return;
    }
    const task = held;
    if (!budget.fits(task.weight)) return;
    held = undefined;
    run(slot, task);
  }
}

function run(slot: Slot, task: Task) {
  clearTimeout(slot.idleTimer);
  slot.busy = true;
  slot.worker.ref();
  budget.take(task.weight);
  const id = nextId++;
  const outOfTime = () =>
    finish(
      { ok: false, reason: `the image took over ${task.timeLimitMs / 1000} s to decode and measure` },
      false,
    );
  // The image's time counts from the worker's start of it: a fresh worker's own start (100 ms
  // built, seconds through tsx on a loaded machine) has a bound of its own.
  let timer = setTimeout(outOfTime, WORKER_START_LIMIT_MS);
  const finish = (result: InspectedImage, workerUsable: boolean) => {
    if (task.settled) return;
    clearTimeout(timer);
    slot.worker.off('message', onMessage);
    slot.worker.off('error', onFailure);
    slot.worker.off('exit', onFailure);
    budget.give(task.weight);
    if (workerUsable && slots.includes(slot)) {
      slot.busy = false;
      slot.worker.unref();
      slot.idleTimer = setTimeout(() => retire(slot), IDLE_WORKER_MS).unref();
    } else {
      // Ended with its decode: nothing it was doing goes on, and the next image gets a fresh worker.
      retire(slot);
    }
    task.settle(result);
    dispatch();
  };
  const onMessage = (message: { id: number; started: true } | { id: number; result: InspectedImage }) => {
    if (message.id !== id) return;
    if ('result' in message) return finish(message.result, true);
    clearTimeout(timer);
    timer = setTimeout(outOfTime, task.timeLimitMs);
  };
  // A worker that fails or stops is replaced; its image is answered as unusable.
  const onFailure = () => finish(unusable, false);
  task.onAbort = () => finish({ ok: false, reason: 'the check was stopped' }, false);
  slot.worker.on('message', onMessage);
  slot.worker.once('error', onFailure);
  slot.worker.once('exit', onFailure);
  slot.worker.postMessage({ ...task.job, id });
}

/**
 * Decodes an image once (bounded) and measures it in a worker thread, within the process's decode
 * budget, in turns by owner; never throws for bad bytes. An image past its time, or whose signal
 * aborts, is answered as not measured and its decode stopped.
 */
export function inspectImageInPool(job: ImageJob, options: ImageRun = {}): Promise<InspectedImage> {
  const { signal } = options;
  return new Promise<InspectedImage>((resolve) => {
    if (signal?.aborted) return resolve({ ok: false, reason: 'the check was stopped' });
    const task: Task = {
      job,
      weight: decodeWeight(job.decodeBytes ?? BASE_DECODE_BYTES),
      timeLimitMs: options.timeLimitMs ?? IMAGE_TIME_LIMIT_MS,
      settled: false,
      settle: (result) => {
        if (task.settled) return;
        task.settled = true;
        signal?.removeEventListener('abort', aborted);
        resolve(result);
      },
      // Still waiting: answered now, and skipped when its turn comes.
      onAbort: () => task.settle({ ok: false, reason: 'the check was stopped' }),
    };
    const aborted = () => task.onAbort();
    signal?.addEventListener('abort', aborted, { once: true });
    queue.push(options.owner ?? '', task);
    dispatch();
  });
}

/** The pool's workers now (tests: a worker ended with its decode is gone). */
export const imageWorkerThreadIds = () => slots.map((slot) => slot.worker.threadId);

/** Bytes of the decode budget taken now (tests and logs). */
export const imageDecodeBudgetInUse = () => budget.inUse;
