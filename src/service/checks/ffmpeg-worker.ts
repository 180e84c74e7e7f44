import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from './worker-thread';

// The wasm FFmpeg worker (frame-reader.ts): FFmpeg 6 of `@ffmpeg/core`, compiled once per worker,
// a fresh instance per video, so that nothing one hostile file did to the heap meets the next one.

lowerThisThreadPriority();

export interface FfmpegJob {
  id: number;
  /** The video file, read here into the instance's in-memory file system. */
  path: string;
  /** FFmpeg's arguments after the program name; the input is `/input`, the output `/output`. */
  args: string[];
  /** Most bytes the instance's heap may grow to; beyond, its allocations fail and FFmpeg stops. */
  maxHeapBytes: number;
  /** FFmpeg's own time limit (checked between packets); frame-reader.ts ends the worker after it. */
  timeoutMs: number;
}

export type FfmpegAnswer = { id: number; output: Uint8Array } | { id: number; error: string };

interface FfmpegCore {
  FS: { writeFile(path: string, data: Uint8Array): void; readFile(path: string): Uint8Array };
  exec(...args: string[]): number;
  setTimeout(ms: number): void;
  setLogger(logger: (log: { type: string; message: string }) => void): void;
}
type CoreFactory = (module: Record<string, unknown>) => Promise<FfmpegCore>;

/** The little of the WebAssembly API used here (the server's TypeScript has no DOM library). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const require = createRequire(import.meta.url);
const coreDir = path.join(path.dirname(require.resolve('@ffmpeg/core')), '..', 'esm');
const coreJs = path.join(coreDir, 'ffmpeg-core.js');

// The core is an Emscripten build for web workers: it reads its own location from `self`. Nothing
// here may reach the network (the build carries a WebSocket file system): no fetch, no WebSocket.
(globalThis as Record<string, unknown>).self = { location: { href: pathToFileURL(coreJs).href } };
for (const name of ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource']) {
  Reflect.deleteProperty(globalThis, name);
}

let ready: Promise<{ factory: CoreFactory; compiled: object }> | undefined;
const load = () =>
  (ready ??= (async () => {
    const compiled = await wasm.compile(fs.readFileSync(path.join(coreDir, 'ffmpeg-core.wasm')));
    const imported = (await import(pathToFileURL(coreJs).href)) as { default: CoreFactory };
    return { factory: imported.default, compiled };
  })());

async function run(job: FfmpegJob): Promise<Uint8Array> {
  const { factory, compiled } = await load();
  const core = await factory({
    // A fresh instance of the compiled module, whose heap may not grow past the cap.
    instantiateWasm(imports: { a: Record<string, unknown> }, receive: (instance: object) => void) {
      for (const [key, value] of Object.entries(imports.a)) {
        if (typeof value === 'function' && value.name === '_emscripten_resize_heap') {
          const grow = value as (size: number) => boolean;
          imports.a[key] = (size: number) => (size >>> 0 > job.maxHeapBytes ? false : grow(size));
        }
      }
      void wasm.instantiate(compiled, imports).then(receive);
      return {};
    },
  });
  const log: string[] = [];
  core.setLogger(({ type, message }) => {
    if (type === 'stderr' && log.length < 20) log.push(message);
  });
  core.setTimeout(job.timeoutMs);
  core.FS.writeFile('/input', fs.readFileSync(job.path));
  const status = core.exec(...job.args);
  let output: Uint8Array | undefined;
  try {
    output = core.FS.readFile('/output');
  } catch {
    output = undefined;
  }
  if (status !== 0 || !output) {
    const said = log.filter((l) => !l.startsWith('Aborted')).join('; ');
    throw new Error(`ffmpeg failed (${status})${said ? `: ${said.slice(0, 300)}` : ''}`);
  }
  return output;
}

// Loaded at once, so that a worker started ahead of time is ready for the first video.
void load().catch(() => undefined);

parentPort!.on('message', (job: FfmpegJob) => {
  run(job).then(
    (output) =>
      parentPort!.postMessage({ id: job.id, output } satisfies FfmpegAnswer, [output.buffer as ArrayBuffer]),
    (error: unknown) =>
      parentPort!.postMessage({
        id: job.id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies FfmpegAnswer),
  );
});
