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
