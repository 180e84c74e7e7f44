// `npm run bench:ffmpeg`: the two FFmpeg builds the npm registry offers for the liveness frames,
// side by side on the committed liveness samples, through the service's own frame reader
// (frame-reader.ts, the face check's 3 frames at 640 px): `@ffmpeg/core` 0.12 (FFmpeg 6 in
// WebAssembly, in a worker thread) and `@ffmpeg-installer/linux-x64` (a native FFmpeg 4.1 binary,
// run as FFMPEG_PATH). Each variant runs in a process of its own; per clip the time (p50/p99 over
// BENCH_ROUNDS) and the peak resident memory it added: for wasm the process's (worker, compiled
// module and heap), for native the FFmpeg child's (sampled every 5 ms from /proc).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { videoFrames } from '@/service/checks/face-checks';
import { stopFrameReader } from '@/service/checks/frame-reader';
import { samplePath } from '../fixtures/samples';
import { percentile } from './lib/percentile';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const clips = readdirSync(fileURLToPath(new URL('../fixtures/samples', import.meta.url)))
  .filter((f) => /^(liveness|video-(no-face|multiple-faces)).*\.(mp4|webm|mov|mkv|3gp)$/.test(f))
  .sort();
const require = createRequire(import.meta.url);
const nativePath = path.join(
  path.dirname(require.resolve('@ffmpeg-installer/linux-x64/package.json')),
  'ffmpeg',
);

interface VariantResult {
  variant: string;
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
  peakAddedMb: number;
  failures: string[];
}

const kb = (status: string, key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);

/** Peak RSS of this process's child processes, sampled (the native FFmpeg runs as one). */
function childPeakSampler() {
  let peakKb = 0;
  const timer = setInterval(() => {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(/\s+/);
    } catch {
      return;
    }
    for (const pid of children.filter(Boolean)) {
      try {
        peakKb = Math.max(peakKb, kb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM'));
        // `sh` execs FFmpeg in place: the same pid, so its grandchildren are none.
      } catch {
        // gone between the listing and the read
      }
    }
  }, 5);
  return () => {
    clearInterval(timer);
    return peakKb / 1024;
  };
}

async function runVariant(variant: 'wasm' | 'native'): Promise<VariantResult> {
  if (variant === 'native') process.env.FFMPEG_PATH = nativePath;
  else delete process.env.FFMPEG_PATH;
  const baseline = process.memoryUsage().rss / 2 ** 20;
  const stopSampling = variant === 'native' ? childPeakSampler() : undefined;
  const failures: string[] = [];
  const times: number[] = [];
  let firstMs = 0;
  for (let round = 0; round <= rounds; round++) {
    for (const clip of clips) {
      const start = performance.now();
      try {
        const frames = await videoFrames(samplePath(clip), 3);
        if (frames.length === 0) failures.push(`${clip}: no frame`);
      } catch (error) {
        if (round === 0) failures.push(`${clip}: ${(error as Error).message}`);
      }
      const ms = performance.now() - start;
      // Round 0 warms up (the wasm compile, the page cache); its first clip is reported apart.
      if (round === 0 && clip === clips[0]) firstMs = ms;
      else if (round > 0) times.push(ms);
    }
  }
  const peakAddedMb =
    variant === 'native' ? stopSampling!() : process.resourceUsage().maxRSS / 1024 - baseline;
  await stopFrameReader();
  return {
    variant,
    firstMs,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    peakAddedMb,
    failures,
  };
}

const only = process.argv[2];
if (only === 'wasm' || only === 'native') {
  console.log(JSON.stringify(await runVariant(only)));
  process.exit(0);
}

const version = (bin: string) =>
  /ffmpeg version (\S+)/.exec(String(spawnSync(bin, ['-version']).stdout ?? ''))?.[1] ?? 'unknown';
console.log(`${clips.length} clips (${clips.join(', ')}), ${rounds} rounds after a warm-up round`);
console.log(
  `native: @ffmpeg-installer/linux-x64, ffmpeg ${version(nativePath)}; wasm: @ffmpeg/core ${(JSON.parse(readFileSync(path.join(path.dirname(require.resolve('@ffmpeg/core')), '../../package.json'), 'utf8')) as { version: string }).version}`,
);
const results: VariantResult[] = [];
for (const variant of ['wasm', 'native'] as const) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), variant], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) {
    console.log(`${variant}: failed: ${child.stderr.slice(-500)}`);
    continue;
  }
  results.push(JSON.parse(line) as VariantResult);
}
console.log('variant  first clip (ms)  per clip p50 (ms)  p99 (ms)  peak memory added (MB)  failures');
for (const r of results) {
  console.log(
    `${r.variant.padEnd(8)} ${r.firstMs.toFixed(0).padStart(15)} ${r.p50Ms.toFixed(0).padStart(18)} ` +
      `${r.p99Ms.toFixed(0).padStart(9)} ${r.peakAddedMb.toFixed(0).padStart(23)}  ${r.failures.join('; ') || 'none'}`,
  );
}
console.log(JSON.stringify({ rounds, clips: clips.length, results }));
