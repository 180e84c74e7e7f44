// `npm run bench:proxy`: what the BFF costs on the upload path. Starts the embedded service and the
// BFF as child processes, then uploads a 50 MB multipart body to the service directly and through
// the BFF (throughput, ratio, the BFF's peak RSS growth), and sends a small send-input with 20
// concurrent clients both ways (p50/p99 latency). All of it twice: with the service and the BFF each
// on a core of its own (taskset), as they are in production, then with every process sharing every
// core. Prints figures; asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { Agent, request } from 'undici';
import { devDefaults } from '@/server-shared/dev-defaults';
import { freePort } from '../fixtures/free-port';
import { mxCustomFieldsInputs } from '../fixtures/send-input-form';
import {
  buildBenchServers,
  compareStartUp,
  printStartUp,
  sleep,
  startNode,
  stopNode,
  waitForHttp,
} from './lib/node-process';
import { median, percentile } from './lib/percentile';
import { cpuMs, rssPeakSampler } from './lib/proc-stats';

const BIG_BYTES = 50 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CLIENTS = 20;
const SMALL_PER_CLIENT = Number(process.env.BENCH_SMALL_PER_CLIENT ?? 5);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 100);
// BENCH_ONLY=small: the small send-inputs alone (no start-up timing, no 50 MB uploads), e.g. to
// profile the BFF's per-request cost with BENCH_PROFILE_DIR.
const SMALL_ONLY = process.env.BENCH_ONLY === 'small';

const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

const dataDir = mkdtempSync(path.join(tmpdir(), 'idv-bench-proxy-'));
const servicePort = await freePort();
const bffPort = await freePort();
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const bffUrl = `http://127.0.0.1:${bffPort}`;
const env = {
  ...process.env,
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: String(bffPort),
  SERVICE_PORT: String(servicePort),
  UPSTREAM_URL: serviceUrl,
  DATA_DIR: dataDir,
  STATIC_DIR: 'none',
  SERVICE_CLIENT_ID: devDefaults.SERVICE_CLIENT_ID,
  SERVICE_CLIENT_SECRET: devDefaults.SERVICE_CLIENT_SECRET,
  WEBHOOK_SECRET: devDefaults.WEBHOOK_SECRET,
  SERVICE_WEBHOOK_URL: 'none',
  STAFF_PASSWORD: 'bench-staff-password',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: '1000000',
  // Every client of the bench comes from 127.0.0.1: the per-address cap of uploads under way
  // (16 by default) would answer 429 to the 20 concurrent clients.
  BODIES_PER_ADDRESS: '1000',
};

// Both as `npm start` runs them: built (src/build/servers.ts). Their start-up is timed first, against
// the TypeScript sources through tsx (as they ran before); the BFF's with the service up.
const built = await buildBenchServers();
const serviceStartUp = SMALL_ONLY
  ? null
  : await compareStartUp(built.service, 'src/service/main.ts', env, `${serviceUrl}/v2/flows`);
// BENCH_PROFILE_DIR=<dir> writes a CPU profile of each process there, to see where the time goes.
const service = startNode(built.service, env);
await waitForHttp(`${serviceUrl}/v2/flows`, service);
const bffStartUp = SMALL_ONLY
  ? null
  : await compareStartUp(built.bff, 'src/bff/main.ts', env, `${bffUrl}/api/health`);
const bff = startNode(built.bff, env);
async function stopAll() {
  await Promise.all([service, bff, ...(bareProxy ? [bareProxy] : [])].map(stopNode));
  await dispatcher.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** One way to the service: where send-input goes, and how a verification is made for it. */
interface Route {
  name: string;
  newIdentity(flowId?: string): Promise<{ url: string; headers: Record<string, string> }>;
}

let token = '';
async function serviceToken() {
  const res = await request(`${serviceUrl}/oauth`, {
    method: 'POST',
    dispatcher,
    headers: {
      authorization: `Basic ${Buffer.from(`${env.SERVICE_CLIENT_ID}:${env.SERVICE_CLIENT_SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  token = ((await res.body.json()) as { access_token: string }).access_token;
}

const direct: Route = {
  name: 'direct',
  async newIdentity(flowId = 'global-passport') {
    const res = await request(`${serviceUrl}/v2/verifications`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId }),
    });
    const { identity } = (await res.body.json()) as { identity: string };
    return {
      url: `${serviceUrl}/v2/identities/${identity}/send-input`,
      headers: { authorization: `Bearer ${token}` },
    };
  },
};

const viaBff: Route = {
  name: 'via BFF',
  async newIdentity(flowId = 'global-passport') {
    const res = await request(`${bffUrl}/api/verifications`, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ flowId }),
    });
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const { identity } = (await res.body.json()) as { identity: string };
    return { url: `${bffUrl}/api/identities/${identity}/send-input`, headers: { cookie } };
  },
};

/** The floor: a bare pass-through (lib/bare-proxy.ts) in front of the service, started once the token is known. */
const barePort = await freePort();
let bareProxy: ReturnType<typeof startNode> | undefined;
const bare: Route = {
  name: 'bare hop',
  async newIdentity(flowId) {
    const { url } = await direct.newIdentity(flowId);
    return {
      url: url
        .replace(`${serviceUrl}/v2/identities/`, `http://127.0.0.1:${barePort}/p/`)
        .replace(/\/send-input$/, ''),
      headers: {},
    };
  },
};

const boundary = '----idv-bench-boundary-7d1f';
const descriptor = (filename: string) =>
  JSON.stringify([
    {
      inputType: 'document-photo',
      group: 0,
      data: { type: 'passport', country: 'AR', page: 'front', filename },
    },
  ]);

/** A multipart body: the passport photo the descriptor names, plus optional ballast in a file nobody names. */
function multipart(photo: Buffer, ballastBytes: number) {
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n${descriptor('p.jpg')}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    photo,
  ];
  if (ballastBytes > 0) {
    const head = Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="ballast.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const size = ballastBytes - parts.reduce((n, p) => n + p.length, 0) - head.length - 64;
    const ballast = Buffer.alloc(size, 0x5a);
    // A JPEG's first bytes, so that the format check passes; the service discards unnamed files.
    photo.copy(ballast, 0, 0, Math.min(photo.length, size));
    parts.push(head, ballast);
  }
  parts.push(Buffer.from(`\r\n--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** A send-input of custom fields only (mx-ine-full): no file, so the service's own work is small. */
const fieldsOnly = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n${JSON.stringify(mxCustomFieldsInputs)}\r\n--${boundary}--\r\n`,
);

async function send(target: { url: string; headers: Record<string, string> }, body: Buffer) {
  const started = process.hrtime.bigint();
  const res = await request(target.url, {
    method: 'POST',
    dispatcher,
    headers: { ...target.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
  });
  const text = await res.body.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 201) throw new Error(`send-input answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return ms;
}

/** CPU time of this process (the client), in ms. */
function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Where the processes run. 'shared': anywhere, as the scheduler likes: on this machine's 2 cores the
 * client, the BFF and the service (with its file-writing threads) take turns. 'separate cores': the
 * service on CPU 0 and the BFF on CPU 1, each alone on its core as a BFF and the hosted service are
 * on their own machines; the client runs anywhere. The same placement holds for both ways.
 */
type Placement = 'shared' | 'separate cores';
function place(placement: Placement) {
  const cpusFor = (pid: number, list: string) =>
    execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
  const all = `0-${cpus().length - 1}`;
  cpusFor(service.pid!, placement === 'shared' ? all : '0');
  cpusFor(bff.pid!, placement === 'shared' ? all : '1');
  // The bare hop stands where the BFF stands.
  if (bareProxy?.pid) cpusFor(bareProxy.pid, placement === 'shared' ? all : '1');
}
function canPlace() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return cpus().length >= 2;
  } catch {
    return false;
  }
}

const kinds = [
  { kind: 'photo', flowId: 'global-passport', perClient: SMALL_PER_CLIENT, clients: CLIENTS },
  { kind: 'fields', flowId: 'mx-ine-full', perClient: SMALL_PER_CLIENT * 4, clients: CLIENTS },
  // One client alone: the path's own added latency, without 20 clients queueing for 2 CPUs.
  { kind: 'fields, 1 client', flowId: 'mx-ine-full', perClient: SMALL_PER_CLIENT * 20, clients: 1 },
] as const;

async function measure(big: Buffer, small: Buffer) {
  // 1. Throughput of a 50 MB body, alternating the two ways; the BFF's RSS sampled meanwhile, and
  // the CPU each process spent: the BFF's cost shows in the wall time only where it has to wait
  // for a core the other two hold.
  const times: Record<string, number[]> = { direct: [], 'via BFF': [] };
  const uploadCpu: Record<string, { client: number; bff: number; service: number }> = {
    direct: { client: 0, bff: 0, service: 0 },
    'via BFF': { client: 0, bff: 0, service: 0 },
  };
  const bffRss = rssPeakSampler(bff.pid!, 10);
  const baselineKb = bffRss.peakKb;
  // Two uploads each way first, not timed: the first big bodies of a placement pay for JIT tiers,
  // socket buffers growing and the threads moving to their cores.
  for (let i = 0; i < (SMALL_ONLY ? 0 : 2); i++)
    for (const route of [direct, viaBff]) await send(await route.newIdentity(), big);
  for (let round = 0; round < (SMALL_ONLY ? 0 : ROUNDS); round++) {
    for (const route of [direct, viaBff]) {
      const target = await route.newIdentity();
      const before = { client: ownCpuMs(), bff: cpuMs(bff.pid!), service: cpuMs(service.pid!) };
      times[route.name].push(await send(target, big));
      const spent = uploadCpu[route.name];
      spent.client += ownCpuMs() - before.client;
      spent.bff += cpuMs(bff.pid!) - before.bff;
      spent.service += cpuMs(service.pid!) - before.service;
    }
  }
  const peakKb = bffRss.stop();

  // 2. Latency of a small send-input with 20 concurrent clients, each way: a 640×640 photo (the
  // service's image checks dominate), and custom fields only (the proxy's own cost shows).
  const latencies: Record<string, number[]> = {};
  const bffCpu: Record<string, number> = {};
  for (const { kind, flowId, perClient, clients } of kinds) {
    const body = kind === 'photo' ? small : fieldsOnly;
    // The bare hop (the floor of any proxy here) where the proxy's own cost shows: fields only.
    const routes = kind === 'photo' ? [direct, viaBff] : [direct, viaBff, bare];
    for (const route of [...routes, ...routes]) {
      const key = `${kind} ${route.name}`;
      latencies[key] ??= [];
      const targets = await Promise.all(Array.from({ length: clients }, () => route.newIdentity(flowId)));
      const cpuBefore = route === viaBff ? cpuMs(bff.pid!) : 0;
      await Promise.all(
        targets.map(async (target) => {
          for (let i = 0; i < perClient; i++) {
            // Like people on phones, each client pauses between sends (random 0–2×THINK_MS); 0 = back to back.
            if (THINK_MS) await sleep(Math.random() * 2 * THINK_MS);
            latencies[key].push(await send(target, body));
          }
        }),
      );
      if (route === viaBff) bffCpu[kind] = (bffCpu[kind] ?? 0) + cpuMs(bff.pid!) - cpuBefore;
    }
  }
  return { times, uploadCpu, baselineKb, peakKb, latencies, bffCpu };
}

function report(placement: Placement, big: Buffer, small: Buffer, m: Awaited<ReturnType<typeof measure>>) {
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  const mb = big.length / (1024 * 1024);
  const throughput = (name: string) => mb / (median(m.times[name]) / 1000);
  const directMbps = throughput('direct');
  const bffMbps = throughput('via BFF');
  console.log(`\n  Placement: ${placement}`);
  if (!SMALL_ONLY) {
    for (const name of ['direct', 'via BFF']) {
      console.log(
        `  50 MB upload, ${name.padEnd(8)}: ${fmt(throughput(name))} MB/s  (median ${fmt(median(m.times[name]), 0)} ms; ${m.times[name].map((t) => t.toFixed(0)).join(', ')})`,
      );
    }
    console.log(`  throughput ratio BFF/direct: ${fmt(bffMbps / directMbps, 3)}   (target >= 0.9)`);
    for (const name of ['direct', 'via BFF']) {
      const perMb = (ms: number) => fmt(ms / (ROUNDS * mb), 2);
      const spent = m.uploadCpu[name];
      console.log(
        `  CPU per MB, ${name.padEnd(8)}: client ${perMb(spent.client)} ms, BFF ${perMb(spent.bff)} ms, service ${perMb(spent.service)} ms; wall ${fmt(median(m.times[name]) / mb, 2)} ms`,
      );
    }
    console.log(
      `  BFF RSS: ${fmt(m.baselineKb / 1024)} MB before, peak ${fmt(m.peakKb / 1024)} MB, growth ${fmt((m.peakKb - m.baselineKb) / 1024)} MB   (target < 48 MB)`,
    );
  }
  for (const { kind } of kinds) {
    const size = (kind === 'photo' ? small : fieldsOnly).length;
    for (const name of ['direct', 'via BFF']) {
      const values = m.latencies[`${kind} ${name}`];
      console.log(
        `  small send-input (${kind}, ${size} B) ${name.padEnd(8)} p50 ${fmt(percentile(values, 50), 2)} ms  p99 ${fmt(percentile(values, 99), 2)} ms  (n=${values.length})`,
      );
    }
    const added =
      percentile(m.latencies[`${kind} via BFF`], 50) - percentile(m.latencies[`${kind} direct`], 50);
    console.log(
      `  added p50 latency (${kind}): ${fmt(added, 2)} ms   (target ≤ 1 ms); BFF CPU per send-input ${fmt(m.bffCpu[kind] / m.latencies[`${kind} via BFF`].length, 2)} ms`,
    );
    const bareValues = m.latencies[`${kind} bare hop`];
    if (bareValues) {
      const floor = percentile(bareValues, 50) - percentile(m.latencies[`${kind} direct`], 50);
      console.log(
        `  added p50 latency of a bare hop (Fastify + undici, nothing else; the floor here): ${fmt(floor, 2)} ms; the BFF adds ${fmt(added - floor, 2)} ms above it`,
      );
    }
  }
}

try {
  await waitForHttp(`${serviceUrl}/v2/flows`, service);
  await waitForHttp(`${bffUrl}/api/health`, bff);
  await serviceToken();
  bareProxy = startNode(
    'e2e/bench/lib/bare-proxy.ts',
    env,
    'ignore',
    [],
    [String(barePort), serviceUrl, token],
  );

  const photo = await sharp({
    create: { width: 640, height: 640, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .composite([
      {
        input: await sharp({
          create: { width: 320, height: 320, channels: 3, background: { r: 20, g: 180, b: 240 } },
        })
          .png()
          .toBuffer(),
        left: 80,
        top: 120,
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
  const small = multipart(photo, 0);
  const big = multipart(photo, BIG_BYTES);

  // Warm both paths (JIT, connections, the BFF's token).
  for (const route of [direct, viaBff])
    for (let i = 0; i < 5; i++) await send(await route.newIdentity(), small);

  const placements: Placement[] = canPlace() ? ['separate cores', 'shared'] : ['shared'];
  const results = [];
  for (const placement of placements) {
    if (placements.length > 1) place(placement);
    results.push({ placement, measured: await measure(big, small) });
  }

  console.log(
    `\nBFF proxy benchmark (${SMALL_ONLY ? 'small send-inputs only' : `${ROUNDS} rounds of ${(big.length / (1024 * 1024)).toFixed(1)} MB each way`}; ${CLIENTS} concurrent clients for small send-inputs; ` +
      `think time ${THINK_MS} ms; ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)})`,
  );
  if (placements.length === 1) console.log('  (taskset or a second CPU is missing: one placement only)');
  if (serviceStartUp) printStartUp('  service', serviceStartUp);
  if (bffStartUp) printStartUp('  BFF', bffStartUp);
  for (const { placement, measured } of results) report(placement, big, small, measured);
} finally {
  await stopAll();
}
