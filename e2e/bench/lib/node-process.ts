import { spawn, type ChildProcess } from 'node:child_process';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a TypeScript entry point of the product in its own Node process, as `npm start` would.
 * BENCH_PROFILE_DIR=<dir> writes a CPU profile of the process there, to see where the time goes.
 */
export function startNode(entry: string, env: NodeJS.ProcessEnv, stdout: 'inherit' | 'ignore' = 'ignore') {
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
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
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`the process for ${url} exited (${child.exitCode})`);
    const answered = await fetch(url).then(
      async (response) => (await response.arrayBuffer(), true),
      () => false,
    );
    if (answered) return;
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
