// `npm run bench:scale -- service`: what a second service instance adds, on one PostgreSQL
// database (a schema of its own, dropped after). The send-input of bench:service (an ID card's
// two sides and a selfie, br-bank: checked, not yet processed) by BENCH_SCALE_CLIENTS clients
// back to back, against one instance and against two (each client's verification created on one
// instance and its inputs sent to the other), each instance pinned to a core of its own by
// taskset where possible, rounds alternating. Prints send-inputs/s, p50/p99, the services' CPU per
// send-input, and the queries and database time per send-input as the services' `pg` clients saw
// them (pg-monitor.mjs: the store, the locks and the job queue); asserts nothing.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { withAllocatorEnv } from '@/server-shared/allocator-env';
import { facePhoto } from '../../fixtures/face-photo';
import { freePort } from '../../fixtures/free-port';
import { samplePath } from '../../fixtures/samples';
import { sendInputForm } from '../../fixtures/send-input-form';
import { dropSchema, freshSchemaUrl, testDatabaseBase } from '../../fixtures/test-database';
import { benchAuth, benchIdentity, benchSecrets } from './bench-service';
import { sleep, startNode, stopNode, waitForHttp } from './node-process';
import { median, percentile } from './percentile';
import { pinning, pinTo } from './pinning';
import { cpuMs } from './proc-stats';

const CLIENTS = Number(process.env.BENCH_SCALE_CLIENTS ?? 4);
const PER_ROUND = Number(process.env.BENCH_SCALE_REQUESTS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Instance {
  child: ChildProcess;
  url: string;
  monitorFile: string;
}

/** Queries and database ms since the last call (the monitor resets at each). */
async function databaseUse(instance: Instance) {
  fs.rmSync(instance.monitorFile, { force: true });
  instance.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(fs.readFileSync(instance.monitorFile, 'utf8')) as { queries: number; ms: number };
    } catch {
      await sleep(20);
    }
  }
  throw new Error(`the database monitor of ${instance.url} did not answer`);
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
  queries: number;
  dbMs: number;
}

export async function serviceScale() {
  const probe = new pg.Client({ connectionString: testDatabaseBase });
  try {
    await probe.connect();
    await probe.end();
  } catch {
    console.log(`(no PostgreSQL at ${testDatabaseBase}: no service scale figures)`);
    return;
  }
  const schema = freshSchemaUrl('idv_bench_scale_service');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-scale-service-'));
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const monitorFile = path.join(dataDir, `pg-monitor-${i}.json`);
      const child = startNode(
        'src/service/main.ts',
        withAllocatorEnv({
          ...process.env,
          ...benchSecrets,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          SERVICE_PORT: String(port),
          DATA_DIR: path.join(dataDir, `service-${i}`),
          DATABASE_URL: schema.url,
          SERVICE_WEBHOOK_URL: 'none',
          PROCESSING_STEP_MS: '0',
          UPLOAD_WAIT_SECONDS: '600',
          LOG_LEVEL: 'warn',
          PG_MONITOR_FILE: monitorFile,
        }),
        'ignore',
        ['--import', new URL('./pg-monitor.mjs', import.meta.url).href],
      );
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/v2/flows`, child);
      pinTo(child, i);
      instances.push({ child, url, monitorFile });
    }
    const auth = await benchAuth(instances[0].url);
    const enlarged = (file: string) =>
      sharp(fs.readFileSync(samplePath(file)))
        .resize({ width: 2000 })
        .jpeg({ quality: 95 })
        .toBuffer();
    const [front, back, selfie] = await Promise.all([
      enlarged('br-national-id-front.jpg'),
      enlarged('br-national-id-back.jpg'),
      facePhoto(1000, 1000, { seed: 37 }),
    ]);
    const idSide = (page: 'front' | 'back') => ({
      inputType: 'document-photo',
      group: 0,
      data: { type: 'national-id', country: 'BR', page, filename: `${page}.jpg` },
    });
    const inputs = [
      idSide('front'),
      idSide('back'),
      { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } },
    ];

    /** One send-input to `sendTo` of a verification created on `createOn`: its latency. */
    async function oneRequest(createOn: string, sendTo: string) {
      const identity = await benchIdentity(createOn, auth, 'br-bank');
      const started = performance.now();
      const response = await fetch(`${sendTo}/v2/identities/${identity}/send-input`, {
        method: 'POST',
        headers: auth,
        body: sendInputForm(inputs, [
          { field: 'document', name: 'front.jpg', bytes: front },
          { field: 'document', name: 'back.jpg', bytes: back },
          { field: 'selfie', name: 'selfie.jpg', bytes: selfie },
        ]),
      });
      const results = (await response.json()) as { result: boolean }[];
      if (response.status !== 201 || !results.every((r) => r.result))
        throw new Error(`send-input: ${response.status} ${JSON.stringify(results)}`);
      return performance.now() - started;
    }

    async function load(used: Instance[], count: number): Promise<Figures> {
      const urls = used.map((i) => i.url);
      await Promise.all(used.map(databaseUse));
      const cpuBefore = used.reduce((sum, i) => sum + cpuMs(i.child.pid!), 0);
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          while (next < count) {
            const k = next++;
            const sendTo = urls[(client + k) % urls.length];
            const createOn = urls[(client + k + 1) % urls.length];
            latencies.push(await oneRequest(createOn, sendTo));
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = used.reduce((sum, i) => sum + cpuMs(i.child.pid!), 0) - cpuBefore;
      const db = await Promise.all(used.map(databaseUse));
      const n = latencies.length;
      return {
        rps: n / seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        cpu: cpu / n,
        queries: db.reduce((sum, d) => sum + d.queries, 0) / n,
        dbMs: db.reduce((sum, d) => sum + d.ms, 0) / n,
      };
    }

    // Warm-up: each instance loads its models and OCR data at its first checks.
    await load(instances, 4);
    // What an idle instance sends anyway (its job queue looking for due jobs): part of every figure below.
    await Promise.all(instances.map(databaseUse));
    const idleSeconds = 6;
    await sleep(idleSeconds * 1000);
    const idle = await Promise.all(instances.map(databaseUse));
    const idleQueries = idle.reduce((sum, d) => sum + d.queries, 0) / instances.length / idleSeconds;
    const rounds: { one: Figures[]; two: Figures[] } = { one: [], two: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.one.push(await load(instances.slice(0, 1), PER_ROUND));
      rounds.two.push(await load(instances, PER_ROUND));
    }
    // The best round's throughput and latency (least disturbed by the machine's other work), the
    // median of the costs per send-input.
    const best = (list: Figures[]): Figures => ({
      ...list.reduce((a, b) => (b.rps > a.rps ? b : a)),
      cpu: median(list.map((f) => f.cpu)),
      queries: median(list.map((f) => f.queries)),
      dbMs: median(list.map((f) => f.dbMs)),
    });
    const one = best(rounds.one);
    const two = best(rounds.two);
    console.log(
      `\nService scale benchmark on PostgreSQL: send-input of an ID card's two sides and a selfie (br-bank), ` +
        `${CLIENTS} clients back to back, ${PER_ROUND} per round, best of ${ROUNDS} rounds; ${os.cpus().length} CPUs, ` +
        `load average ${os.loadavg()[0].toFixed(1)}` +
        `${pinning ? '; instance 1 on CPU 0, instance 2 on CPU 1 (taskset), PostgreSQL anywhere' : '; no taskset: unpinned'}`,
    );
    const fmt = (f: Figures) =>
      `${f.rps.toFixed(2).padStart(5)} send-inputs/s  p50 ${f.p50.toFixed(0).padStart(5)} ms  p99 ${f.p99.toFixed(0).padStart(5)} ms` +
      `   per send-input (its creation included): CPU ${f.cpu.toFixed(0)} ms (services), ${f.queries.toFixed(1)} queries, database ${f.dbMs.toFixed(1)} ms`;
    console.log(`  idle       : ${idleQueries.toFixed(1)} queries/s per instance (its job queue polling)`);
    console.log(`  1 instance : ${fmt(one)}`);
    console.log(`  2 instances: ${fmt(two)} (created on one, sent to the other)`);
    console.log(
      `  ratio 2/1  : ${(two.rps / one.rps).toFixed(2)}× send-inputs/s, CPU per send-input ${(two.cpu / one.cpu).toFixed(2)}×, ` +
        `queries ${(two.queries / one.queries).toFixed(2)}×`,
    );
  } finally {
    await Promise.all(instances.map((i) => stopNode(i.child)));
    await dropSchema(schema.schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
