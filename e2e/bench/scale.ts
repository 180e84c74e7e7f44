// `npm run bench:scale`: what a second BFF instance adds. The small-request load of bench:proxy (a
// custom-fields send-input, no file, CONCURRENCY clients back to back) against one BFF and against
// two, each BFF pinned to a core of its own by taskset where possible; on SQLite (each instance its
// own file, every client sticking to the instance that created its verification) and on PostgreSQL
// (one database; every client creates its verification on one instance and sends on the other).
// Prints requests/s, p50 and p99 of each and the two-to-one ratio; asserts nothing.
// `npm run bench:scale -- service`: the same question for the embedded service on PostgreSQL
// (lib/scale-service.ts).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { devDefaults } from '@/server-shared/dev-defaults';
import { freePort } from '../fixtures/free-port';
import { mxCustomFieldsInputs } from '../fixtures/send-input-form';
import { dropSchema, freshSchemaUrl, testDatabaseBase } from '../fixtures/test-database';
import { startNode, stopNode, waitForHttp } from './lib/node-process';
import { median, percentile } from './lib/percentile';
import { pinning, pinTo as pin } from './lib/pinning';
import { cpuMs } from './lib/proc-stats';
import { serviceScale } from './lib/scale-service';

const mode = process.argv[2] ?? 'bff';
if (mode !== 'bff' && mode !== 'service') {
  console.error(`usage: bench:scale [-- bff|service]; got ${mode}`);
  process.exit(2);
}
if (mode === 'service') {
  await serviceScale();
  process.exit(0);
}

const CONCURRENCY = Number(process.env.BENCH_CLIENTS ?? 20);
const PER_CLIENT = Number(process.env.BENCH_SCALE_PER_CLIENT ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const dispatcher = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
const dataDir = mkdtempSync(path.join(tmpdir(), 'idv-bench-scale-'));
const servicePort = await freePort();
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const baseEnv = {
  ...process.env,
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  SERVICE_PORT: String(servicePort),
  UPSTREAM_URL: serviceUrl,
  STATIC_DIR: 'none',
  SERVICE_CLIENT_ID: devDefaults.SERVICE_CLIENT_ID,
  SERVICE_CLIENT_SECRET: devDefaults.SERVICE_CLIENT_SECRET,
  WEBHOOK_SECRET: devDefaults.WEBHOOK_SECRET,
  SERVICE_WEBHOOK_URL: 'none',
  STAFF_PASSWORD: 'bench-staff-password',
  SESSION_SECRET: 'bench-scale-session-secret-0123456789',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: '100000000',
  // Every client of the bench comes from 127.0.0.1: the per-address cap of uploads under way
  // (16 by default) would answer 429 to the 20 concurrent clients.
  BODIES_PER_ADDRESS: '1000',
  DATABASE_URL: '',
};

const boundary = '----idv-bench-boundary-7d1f';
const fieldsOnly = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n${JSON.stringify(mxCustomFieldsInputs)}\r\n--${boundary}--\r\n`,
);

interface Client {
  cookie: string;
  sendUrl: string;
}

/** A browser: its verification created on `createOn`, its inputs sent to `sendTo` (same cookie). */
async function newClient(createOn: string, sendTo: string): Promise<Client> {
  const res = await request(`${createOn}/api/verifications`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ flowId: 'mx-ine-full' }),
  });
  const body = (await res.body.json()) as { identity: string };
  if (res.statusCode !== 201) throw new Error(`creation answered ${res.statusCode}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  return { cookie, sendUrl: `${sendTo}/api/identities/${body.identity}/send-input` };
}

async function send(client: Client) {
  const started = process.hrtime.bigint();
  const res = await request(client.sendUrl, {
    method: 'POST',
    dispatcher,
    headers: { cookie: client.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: fieldsOnly,
  });
  const text = await res.body.text();
  if (res.statusCode !== 201) throw new Error(`send-input answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * CONCURRENCY clients, back to back, spread evenly over the instances; requests/s, latencies, and
 * the CPU the BFFs and the service spent per request (less at the mercy of a busy machine than
 * the wall clock).
 */
async function load(urls: string[], crossInstance: boolean, perClient: number, bffs: ChildProcess[]) {
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => {
      const sendTo = urls[i % urls.length];
      const createOn = crossInstance ? urls[(i + 1) % urls.length] : sendTo;
      return newClient(createOn, sendTo);
    }),
  );
  const latencies: number[] = [];
  const cpuOf = () => ({
    bff: bffs.reduce((sum, child) => sum + cpuMs(child.pid!), 0),
    service: cpuMs(service.pid!),
  });
  const before = cpuOf();
  const started = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < perClient; i++) latencies.push(await send(client));
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = cpuOf();
  return {
    rps: latencies.length / seconds,
    latencies,
    bffCpu: (after.bff - before.bff) / latencies.length,
    serviceCpu: (after.service - before.service) / latencies.length,
  };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** ms of CPU per request: all BFFs together, and the service. */
  bffCpu: number;
  serviceCpu: number;
}

async function measureStore(store: 'SQLite' | 'PostgreSQL'): Promise<{ one: Figures; two: Figures }> {
  const schema = store === 'PostgreSQL' ? freshSchemaUrl('idv_bench_scale') : null;
  const bffs: ChildProcess[] = [];
  const urls: string[] = [];
  const startBff = async (index: number) => {
    const port = await freePort();
    const child = startNode('src/bff/main.ts', {
      ...baseEnv,
      PORT: String(port),
      DATA_DIR: path.join(dataDir, `${store}-${index}`),
      DATABASE_URL: schema?.url ?? '',
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/api/health`, child);
    pin(child, index);
    bffs.push(child);
    urls.push(url);
  };
  try {
    await startBff(0);
    const rounds: { one: Figures[]; two: Figures[] } = { one: [], two: [] };
    const figures = ({ latencies, ...rest }: Awaited<ReturnType<typeof load>>): Figures => ({
      ...rest,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    });
    // Warm up (JIT, connections, the token), then alternate one and two instances round by round,
    // so that a load change on the machine weighs on both alike.
    await load(urls, false, 10, bffs);
    await startBff(1);
    await load(urls, store === 'PostgreSQL', 10, bffs);
    for (let round = 0; round < ROUNDS; round++) {
      rounds.one.push(figures(await load(urls.slice(0, 1), false, PER_CLIENT, bffs.slice(0, 1))));
      rounds.two.push(figures(await load(urls, store === 'PostgreSQL', PER_CLIENT, bffs)));
    }
    // The best round's throughput and latency (the one least disturbed by the machine's other
    // work), and the median CPU per request.
    const best = (list: Figures[]) => ({
      ...list.reduce((a, b) => (b.rps > a.rps ? b : a)),
      bffCpu: median(list.map((f) => f.bffCpu)),
      serviceCpu: median(list.map((f) => f.serviceCpu)),
    });
    return { one: best(rounds.one), two: best(rounds.two) };
  } finally {
    await Promise.all(bffs.map(stopNode));
    if (schema) await dropSchema(schema.schema);
  }
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: testDatabaseBase });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const service = startNode('src/service/main.ts', { ...baseEnv, DATA_DIR: path.join(dataDir, 'service') });
try {
  await waitForHttp(`${serviceUrl}/v2/flows`, service);
  const results: { store: string; one: Figures; two: Figures }[] = [];
  results.push({ store: 'SQLite', ...(await measureStore('SQLite')) });
  if (await postgresAnswers()) results.push({ store: 'PostgreSQL', ...(await measureStore('PostgreSQL')) });
  else console.log(`(no PostgreSQL at ${testDatabaseBase}: SQLite only)`);

  console.log(
    `\nBFF scale benchmark: custom-fields send-input (${fieldsOnly.length} B), ${CONCURRENCY} clients back to back, ` +
      `${PER_CLIENT} each; best of ${ROUNDS} rounds; ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)}` +
      `${pinning ? '; BFF 1 on CPU 0, BFF 2 on CPU 1 (taskset), the service and the database anywhere' : '; no taskset: unpinned'}`,
  );
  const fmt = (f: Figures) =>
    `${f.rps.toFixed(0).padStart(5)} req/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms` +
    `   CPU per request: BFFs ${f.bffCpu.toFixed(2)} ms, service ${f.serviceCpu.toFixed(2)} ms`;
  for (const { store, one, two } of results) {
    console.log(`  ${store.padEnd(10)} 1 instance : ${fmt(one)}`);
    console.log(`  ${store.padEnd(10)} 2 instances: ${fmt(two)}`);
    console.log(
      `  ${store.padEnd(10)} ratio 2/1  : ${(two.rps / one.rps).toFixed(2)}× requests/s, p99 ${(two.p99 / one.p99).toFixed(2)}×`,
    );
  }
} finally {
  await stopNode(service);
  await dispatcher.close();
  rmSync(dataDir, { recursive: true, force: true });
}
