import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread `name` of this folder. Built (`npm start`), it is a bundle beside the
 * service's (src/build/servers.ts); from the TypeScript sources (tests, `npm run service`) it runs
 * through tsx, whose loader a worker thread does not inherit on Node 20.
 */
export function startWorkerThread(name: string, options: WorkerOptions = {}): Worker {
  if (import.meta.url.endsWith('.js')) return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  const entry = new URL(`./${name}.ts`, import.meta.url);
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/**
 * Niceness of the check workers' threads: under load the service's own thread (HTTP, timers, its
 * garbage collector) runs first and the checks take what is left. In bench:service, runs at
 * niceness 0 and 5 alternated: longest event-loop stall 20–32 ms at 0, 16–25 ms at 5, for the same
 * send-inputs per second.
 */
const CHECK_WORKER_NICENESS = 5;

/**
 * Lowers the calling worker thread's priority (Linux: a thread's id stands for it in
 * setpriority). Elsewhere, or where it is not allowed, nothing changes.
 */
export function lowerThisThreadPriority() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, CHECK_WORKER_NICENESS);
  } catch {
    // Not Linux, or no /proc: the thread keeps its priority.
  }
}
