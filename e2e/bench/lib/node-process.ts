import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { buildServers } from '@/build/servers';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the benches build the servers (inside the project, so that node_modules resolve). */
export const BENCH_SERVERS_DIR = 'test-results/bench-servers';

/** Builds the servers as `npm start` runs them (src/build/servers.ts) into BENCH_SERVERS_DIR. */
export async function buildBenchServers() {
  await buildServers(BENCH_SERVERS_DIR);
  return {
    service: `${BENCH_SERVERS_DIR}/service.js`,
    bff: `${BENCH_SERVERS_DIR}/bff.js`,
    start: `${BENCH_SERVERS_DIR}/start.js`,
  };
}

/**
 * Runs an entry point of the product in its own Node process: a built bundle (.js) as `npm start`
 * runs it, or a TypeScript source through tsx (the way the product ran before it was built).
 * BENCH_PROFILE_DIR=<dir> writes a CPU profile of the process there, to see where the time goes.
 */
export function startNode(
  entry: string,
  env: NodeJS.ProcessEnv,
  stdout: 'inherit' | 'ignore' = 'ignore',
  nodeOptions: string[] = [],
  args: string[] = [],
) {
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps'];
  return spawn(process.execPath, [...profile, ...loader, ...nodeOptions, entry, ...args], {
    env,
    stdio: ['ignore', stdout, 'inherit'],
  });
}

/** SIGTERM, then waits for the exit (the product shuts down gracefully). */
export function stopNode(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Waits until `url` answers at all (any status), failing early if the process has exited. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`the process for ${url} exited (${child.exitCode})`);
    const answered = await fetch(url).then(
      async (response) => (await response.arrayBuffer(), true),
      () => false,
    );
    if (answered) return;
    await sleep(everyMs);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Starts `entry` and times it from the spawn to its first answer on `url` (polled every 10 ms). */
export async function startTimed(entry: string, env: NodeJS.ProcessEnv, url: string) {
  const started = performance.now();
  const child = startNode(entry, env);
  await waitForHttp(url, child, 60_000, 10);
  return { child, ms: performance.now() - started };
}

/**
 * Start-up to ready of a server, built against from the sources through tsx (the way it ran before),
 * the median of `rounds` starts each, alternating; each process is stopped again.
 */
export async function compareStartUp(
  built: string,
  source: string,
  env: NodeJS.ProcessEnv,
  url: string,
  rounds = 3,
) {
  const times: Record<'built' | 'tsx', number[]> = { built: [], tsx: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [kind, entry] of [
      ['built', built],
      ['tsx', source],
    ] as const) {
      const { child, ms } = await startTimed(entry, env, url);
      times[kind].push(ms);
      await stopNode(child);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { built: median(times.built), tsx: median(times.tsx) };
}

/** One line: start-up to ready, built beside the tsx baseline. */
export function printStartUp(name: string, times: { built: number; tsx: number }) {
  console.log(
    `${name} start-up to ready: built ${times.built.toFixed(0)} ms, through tsx (before) ${times.tsx.toFixed(0)} ms (${(times.tsx / times.built).toFixed(1)}× faster)`,
  );
}

/**
 * Node options that preload the event-loop monitor (loop-monitor.mjs); `longestStall(child)` then
 * answers the longest stall since the last call, in ms.
 */
export function loopMonitor(file: string) {
  return {
    nodeOptions: ['--import', new URL('./loop-monitor.mjs', import.meta.url).href],
    env: { LOOP_MONITOR_FILE: file },
    async longestStall(child: ChildProcess) {
      rmSync(file, { force: true });
      child.kill('SIGUSR2');
      // The file may be seen before its content is written: read until it parses.
      for (let i = 0; i < 100; i++) {
        if (existsSync(file)) {
          try {
            return (JSON.parse(readFileSync(file, 'utf8')) as { maxMs: number }).maxMs;
          } catch {
            // Not written in full yet.
          }
        }
        await sleep(20);
      }
      throw new Error(`the event-loop monitor did not answer in ${file}`);
    },
  };
}
