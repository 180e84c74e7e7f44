import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import { FairQueue } from '@/checks/inputs/node/fair-queue';
import { sniffFormat, type FileFormat } from '@/shared/file-format';
import type { FfmpegAnswer, FfmpegJob } from './ffmpeg-worker';
import { startWorkerThread } from './worker-thread';

/**
 * FFmpeg for the frames of liveness videos. By default the WebAssembly build of `@ffmpeg/core`
 * (from npm, so `npm install` is enough) in a worker thread: a current FFmpeg in a sandbox with no
 * file system but its own memory one, no network, a capped heap and a time limit; a worker that
 * runs over is ended. `FFMPEG_PATH` selects a system FFmpeg instead, run with the same arguments
 * under CPU-time and address-space limits. Both take the input format from the sniffed container,
 * never from FFmpeg's probing, and a native one reads files and pipes only (no playlists, no
 * network, no concat). Measured side by side: `npm run bench:ffmpeg`.
 */

/** Wall time one video's frames may take (FFmpeg's own limit is a little shorter). */
export const FRAME_TIMEOUT_MS = 20_000;
/** Heap of the wasm instance; its allocations fail beyond (a 640 px decode needs ~60 MB). */
const WASM_MAX_HEAP_BYTES = 512 * 1024 * 1024;
/** A native FFmpeg's limits: CPU seconds and address space (KiB, `ulimit -v`). */
const NATIVE_CPU_SECONDS = 20;
const NATIVE_ADDRESS_SPACE_KIB = 1024 * 1024;

/**
 * The wasm worker is ended after this long without a video: its compiled FFmpeg and heap hold
 * ~200 MB (bench:ffmpeg), which a service that sees a video now and then should give back.
 */
const WASM_IDLE_MS = 30_000;

/** Why frames could not be read, in words for staff (never the file's contents). */
export class FrameReadError extends Error {}

/** FFmpeg's demuxer for each container, so that a file is only ever read as what it was sniffed as. */
const demuxers: Partial<Record<FileFormat, string>> = {
  mp4: 'mov',
  mov: 'mov',
  '3gp': 'mov',
  webm: 'matroska',
  mkv: 'matroska',
};

/** Whose video it is and when to give up: FFmpeg takes videos in turns by verification. */
export interface FrameRun {
  /** The verification: videos wait in turns by owner, so one's heavy video never delays another's. */
  owner?: string;
  /** Aborted: a waiting video leaves the line, a running one has its FFmpeg ended. */
  signal?: AbortSignal;
}

/**
 * One video decodes at a time (each FFmpeg is one thread, beside the image and face workers); the
 * next is the next verification's in turn, as the PDF readers take theirs.
 */
const waiting = new FairQueue<() => void>();
let decoding = false;

async function inTurn<T>({ owner = '', signal }: FrameRun, job: () => Promise<T>): Promise<T> {
  if (decoding) await new Promise<void>((resolve) => waiting.push(owner, resolve));
  decoding = true;
  try {
    if (signal?.aborted) throw new FrameReadError('the check was given up before its video was read');
    return await job();
  } finally {
    waiting.behind(owner);
    const next = waiting.shift();
    if (next) next();
    else decoding = false;
  }
}

export const frameBackend = () => (process.env.FFMPEG_PATH ? 'native' : 'wasm');

async function sniffFile(path: string): Promise<FileFormat | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, 64, 0);
    return sniffFormat(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * Runs FFmpeg on a video with `filters` and `outputArgs` (`-f image2pipe -c:v ppm` and the like)
 * and answers what it wrote, at most `maxBytes`. Throws FrameReadError when it cannot.
 */
export async function runFfmpeg(
  path: string,
  outputArgs: string[],
  maxBytes: number,
  run: FrameRun = {},
): Promise<Buffer> {
  // In line from the call, before the file is even sniffed: the turns follow the order asked.
  return inTurn(run, () => runInTurn(path, outputArgs, maxBytes, run.signal));
}

async function runInTurn(
  path: string,
  outputArgs: string[],
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  const format = await sniffFile(path);
  const demuxer = format ? demuxers[format] : undefined;
  if (!demuxer) throw new FrameReadError('the file is not a video container FFmpeg may read');
  const input = (file: string) => [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-threads',
    '1',
    '-protocol_whitelist',
    'file,pipe',
    '-f',
    demuxer,
    '-i',
    file,
  ];
  const native = process.env.FFMPEG_PATH;
  if (native) return runNative(native, [...input(path), ...outputArgs, 'pipe:1'], maxBytes, signal);
  const output = await runWasm(
    [...input('/input'), ...outputArgs, '/output'].filter((a) => a !== '-nostdin'),
    path,
    signal,
  );
  if (output.length > maxBytes) throw new FrameReadError('FFmpeg wrote more than the frames asked for');
  return output;
}

function runNative(ffmpeg: string, args: string[], maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  // The limits hold through exec; `-protocol_whitelist` keeps the demuxer to the file it was given.
  const limited = [
    '-c',
    `ulimit -t ${NATIVE_CPU_SECONDS} && ulimit -v ${NATIVE_ADDRESS_SPACE_KIB} && exec "$0" "$@"`,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      '/bin/sh',
      [...limited, ffmpeg, ...args],
      {
        timeout: FRAME_TIMEOUT_MS,
        encoding: 'buffer',
        maxBuffer: maxBytes,
        killSignal: 'SIGKILL',
        ...(signal ? { signal } : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        // `sh` answers 127 when the program is not there.
        const missing = (error as { code?: unknown }).code === 127;
        const said = stderr.toString('utf8').trim().slice(0, 300);
        reject(
          new FrameReadError(
            missing
              ? `no FFmpeg at FFMPEG_PATH (${ffmpeg})`
              : signal?.aborted
                ? 'the check was given up while its video was read'
                : error.killed
                  ? 'FFmpeg ran out of time'
                  : `FFmpeg failed${said ? `: ${said}` : ''}`,
          ),
        );
      },
    );
  });
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<
  number,
  { resolve: (b: Buffer) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
>();

function startWorker(): Worker {
  const w = startWorkerThread('ffmpeg-worker', {
    // The JavaScript heap of the worker (its wasm heap is capped apart, WASM_MAX_HEAP_BYTES).
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  w.unref();
  const failAll = (reason: string) => {
    if (worker === w) worker = undefined;
    for (const [id, task] of pending) {
      clearTimeout(task.timer);
      task.reject(new FrameReadError(reason));
      pending.delete(id);
    }
  };
  w.on('message', (answer: FfmpegAnswer) => {
    const task = pending.get(answer.id);
    if (!task) return;
    pending.delete(answer.id);
    clearTimeout(task.timer);
    if ('output' in answer)
      task.resolve(Buffer.from(answer.output.buffer, answer.output.byteOffset, answer.output.byteLength));
    else task.reject(new FrameReadError(answer.error));
    if (pending.size === 0) {
      w.unref();
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        if (worker === w && pending.size === 0) void stopFrameReader();
      }, WASM_IDLE_MS);
      idleTimer.unref();
    }
  });
  w.on('error', () => failAll('the FFmpeg worker failed'));
  w.on('exit', () => failAll('the FFmpeg worker stopped (out of time or memory)'));
  return w;
}

function runWasm(args: string[], path: string, signal?: AbortSignal): Promise<Buffer> {
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const w = worker;
  w.ref();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    // The worker has this job alone (`inTurn`): ending it ends only this video's FFmpeg.
    const timer = setTimeout(() => void w.terminate(), FRAME_TIMEOUT_MS);
    const abort = () => void w.terminate();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    pending.set(id, {
      resolve: (b) => (done(), resolve(b)),
      reject: (e) => (done(), reject(e)),
      timer,
    });
    w.postMessage({
      id,
      path,
      args,
      maxHeapBytes: WASM_MAX_HEAP_BYTES,
      timeoutMs: FRAME_TIMEOUT_MS - 2_000,
    } satisfies FfmpegJob);
  });
}

/** Starts the wasm worker and compiles FFmpeg ahead of the first video (about 1–2 s), once. */
export function warmFrameReader() {
  if (frameBackend() === 'wasm') worker ??= startWorker();
}

/** Ends the wasm worker (tests that prove a dead worker is reported, and shutdown). */
export async function stopFrameReader() {
  const w = worker;
  worker = undefined;
  await w?.terminate();
}
