import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { BASE_DECODE_BYTES, withDecodeBudget } from '@/checks/image/node/decode-budget';
import type { ImageJob, InspectedImage } from '@/checks/image/node/image';
import { startWorkerThread } from './worker-thread';

/**
 * The image checks run in a pool of worker threads, one per core: decoding is sharp's (off the
 * event loop anyway), but the metrics and the PDF417 reader are JavaScript and wasm that would
 * otherwise hold the event loop for tens of milliseconds per image.
 */
const SIZE = Math.max(1, availableParallelism());
const unusable: InspectedImage = { ok: false, reason: 'the image pixels cannot be decoded' };

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
interface Task {
  job: ImageJob;
  resolve: (result: InspectedImage) => void;
}
const slots: Slot[] = [];
const queue: Task[] = [];
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
  const at = slots.indexOf(slot);
  if (at !== -1) slots.splice(at, 1);
  void slot.worker.terminate();
}

function run(slot: Slot, task: Task) {
  clearTimeout(slot.idleTimer);
  slot.busy = true;
  slot.worker.ref();
  const id = nextId++;
  const done = (result: InspectedImage) => {
    slot.worker.off('message', onMessage);
    slot.worker.off('error', onError);
    slot.busy = false;
    slot.worker.unref();
    task.resolve(result);
    const next = queue.shift();
    if (next) run(slots.includes(slot) ? slot : newSlot(), next);
    else if (slots.includes(slot)) slot.idleTimer = setTimeout(() => retire(slot), IDLE_WORKER_MS).unref();
  };
  const onMessage = (message: { id: number; result: InspectedImage }) => {
    if (message.id === id) done(message.result);
  };
  // A worker that fails is replaced; its image is answered as unusable.
  const onError = () => {
    void slot.worker.terminate();
    done(unusable);
  };
  slot.worker.on('message', onMessage);
  slot.worker.once('error', onError);
  slot.worker.postMessage({ ...task.job, id });
}

/**
 * Decodes an image once (bounded) and measures it in a worker thread, within the process's decode
 * budget (decode-budget.ts); never throws for bad bytes.
 */
export function inspectImageInPool(job: ImageJob): Promise<InspectedImage> {
  return withDecodeBudget(
    job.decodeBytes ?? BASE_DECODE_BYTES,
    () =>
      new Promise<InspectedImage>((resolve) => {
        const task = { job, resolve };
        const free = slots.find((s) => !s.busy) ?? (slots.length < SIZE ? newSlot() : null);
        if (free) run(free, task);
        else queue.push(task);
      }),
  );
}
