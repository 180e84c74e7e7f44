// bench:service's last phase: the service on its default SQLite store against the same service
// as it was before issue 36 (durable jobs, the store on Kysely), in the same run: the sources of
// the earlier commit (BENCH_BEFORE, a git ref; 0 skips) are taken out with `git archive` into a
// temporary folder (and BENCH_AFTER's, when set, instead of this checkout), and both run from
// their sources through tsx, side by side, with the same loads in alternating rounds. Two loads:
// a custom-fields send-input (no file: the store's and the HTTP layer's cost, what the issue's
// changes touch) and the image send-input of the bench (its checks' cost, which other work since
// may have changed). Prints each one's send-inputs/s and CPU per send-input and the ratios
// after/before; asserts nothing.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withAllocatorEnv } from '@/server-shared/allocator-env';
import { freePort } from '../../fixtures/free-port';
import { benchAuth, benchIdentity, benchSecrets } from './bench-service';
import { stopNode, waitForHttp } from './node-process';
import { median } from './percentile';
import { cpuMs } from './proc-stats';

/** main before the merge of the service's durable jobs (05b7fbb), the first of issue 36's work. */
const DEFAULT_BEFORE = '05b7fbb^1';

export interface BeforeAfterLoad {
  name: string;
  /** The send-input's multipart body (a fresh one per request). */
  form: () => FormData;
  flowId: string;
  clients: number;
  requests: number;
}

/** The sources of `ref` in `root/label`, with this checkout's dependencies. */
function sourcesOf(ref: string, root: string, label: string) {
  const tar = path.join(root, `${label}.tar`);
  execFileSync('git', [
    'archive',
    '--format=tar',
    '-o',
    tar,
    ref,
    'src',
    'e2e',
    'package.json',
    'tsconfig.json',
  ]);
  const sources = path.join(root, label);
  fs.mkdirSync(sources);
  execFileSync('tar', ['-xf', tar, '-C', sources]);
  // Its dependencies are this checkout's (the versions of the time may differ a little).
  fs.symlinkSync(path.resolve('node_modules'), path.join(sources, 'node_modules'));
  return sources;
}

export async function compareBefore(loads: BeforeAfterLoad[], rounds: number) {
  const ref = process.env.BENCH_BEFORE ?? DEFAULT_BEFORE;
  const afterRef = process.env.BENCH_AFTER;
  if (ref === '0') return;
  for (const r of [ref, afterRef ?? 'HEAD']) {
    try {
      execFileSync('git', ['cat-file', '-e', `${r}^{commit}`], { stdio: 'ignore' });
    } catch {
      console.log(
        `\nbefore/after: no commit ${r} in this clone (BENCH_BEFORE, BENCH_AFTER name others); skipped`,
      );
      return;
    }
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-before-'));
  const started: ReturnType<typeof spawn>[] = [];
  try {
    const sources = sourcesOf(ref, root, 'before');
    const afterSources = afterRef ? sourcesOf(afterRef, root, 'after') : process.cwd();

    const start = async (label: string, cwd: string) => {
      const port = await freePort();
      // From its own folder: tsx reads that folder's tsconfig.json, so `@/` names its own sources.
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
        cwd,
        env: withAllocatorEnv({
          ...process.env,
          ...benchSecrets,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          SERVICE_PORT: String(port),
          DATA_DIR: path.join(root, `data-${label}`),
          DATABASE_URL: '',
          SERVICE_WEBHOOK_URL: 'none',
          PROCESSING_STEP_MS: '0',
          UPLOAD_WAIT_SECONDS: '600',
          LOG_LEVEL: 'warn',
        }),
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      started.push(child);
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/v2/flows`, child);
      return { label, child, url, auth: await benchAuth(url) };
    };
    const services = [await start('after', afterSources), await start('before', sources)];

    const round = async (svc: (typeof services)[number], load: BeforeAfterLoad, count: number) => {
      let next = 0;
      const cpuBefore = cpuMs(svc.child.pid!);
      const begun = performance.now();
      await Promise.all(
        Array.from({ length: load.clients }, async () => {
          while (next < count) {
            next++;
            const identity = await benchIdentity(svc.url, svc.auth, load.flowId);
            const response = await fetch(`${svc.url}/v2/identities/${identity}/send-input`, {
              method: 'POST',
              headers: svc.auth,
              body: load.form(),
            });
            const results = (await response.json()) as { result: boolean }[];
            if (response.status !== 201 || !results.every((r) => r.result))
              throw new Error(`${svc.label} send-input: ${response.status} ${JSON.stringify(results)}`);
          }
        }),
      );
      return {
        rps: count / ((performance.now() - begun) / 1000),
        cpu: (cpuMs(svc.child.pid!) - cpuBefore) / count,
      };
    };
    // Warm-up of both (models, OCR data, code paths), then alternating rounds.
    for (const svc of services) for (const load of loads) await round(svc, load, 2);
    console.log(
      `\nbefore/after on SQLite (the default): ${ref} against ${afterRef ?? 'this checkout'}, both from their sources through tsx, ` +
        `${rounds} rounds alternating (best send-inputs/s, median CPU); load average ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const load of loads) {
      const figures = new Map(services.map((svc) => [svc.label, [] as { rps: number; cpu: number }[]]));
      for (let r = 0; r < rounds; r++)
        for (const svc of r % 2 === 0 ? services : [...services].reverse())
          figures.get(svc.label)!.push(await round(svc, load, load.requests));
      const summary = (label: string) => {
        const list = figures.get(label)!;
        return { rps: Math.max(...list.map((f) => f.rps)), cpu: median(list.map((f) => f.cpu)) };
      };
      const after = summary('after');
      const before = summary('before');
      console.log(`  ${load.name} (${load.clients} clients, ${load.requests} a round):`);
      for (const [label, f] of [
        ['before', before],
        ['after', after],
      ] as const)
        console.log(
          `    ${label.padEnd(6)}: ${f.rps.toFixed(2)} send-inputs/s, CPU ${f.cpu.toFixed(1)} ms per send-input`,
        );
      console.log(
        `    after/before: ${(after.rps / before.rps).toFixed(2)}× send-inputs/s, ${(after.cpu / before.cpu).toFixed(2)}× CPU per send-input (load ${os.loadavg()[0].toFixed(1)})`,
      );
    }
  } finally {
    await Promise.all(started.map(stopNode));
    fs.rmSync(root, { recursive: true, force: true });
  }
}
