// `npm run bench:proxy`: what the BFF costs on the upload path. Starts the embedded service and the
// BFF as child processes, then uploads a 50 MB multipart body to the service directly and through
// the BFF (throughput, ratio, the BFF's peak RSS growth), and sends a small send-input with 20
// concurrent clients both ways (p50/p99 latency). Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { Agent, request } from 'undici';
import { devDefaults } from '@/shared/dev-defaults';
import { freePort } from './lib/free-port';
import { sleep, startNode, stopNode, waitForHttp } from './lib/node-process';
import { median, percentile } from './lib/percentile';
import { cpuMs, rssPeakSampler } from './lib/proc-stats';

const BIG_BYTES = 50 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CLIENTS = 20;
const SMALL_PER_CLIENT = Number(process.env.BENCH_SMALL_PER_CLIENT ?? 5);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 100);

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
};

// BENCH_PROFILE_DIR=<dir> writes a CPU profile of each process there, to see where the time goes.
const service = startNode('src/service/main.ts', env);
const bff = startNode('src/bff/main.ts', env);
async function stopAll() {
  await Promise.all([service, bff].map(stopNode));
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
  `--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n` +
    JSON.stringify([
      {
        inputType: 'custom-fields',
        data: {
          country: 'MX',
          fields: [
            {
              name: 'curp',
              type: 'atomic',
              atomicFieldParams: { type: 'text', value: 'GODE561231HDFRRN04' },
            },
            { name: 'rfc', type: 'atomic', atomicFieldParams: { type: 'text', value: 'GODE561231GR8' } },
            { name: 'startDate', type: 'atomic', atomicFieldParams: { type: 'date', value: '2020-01-15' } },
            { name: 'occupation', type: 'atomic', atomicFieldParams: { type: 'select', value: 'employee' } },
            { name: 'consent', type: 'atomic', atomicFieldParams: { type: 'checkbox', value: 'true' } },
          ],
        },
      },
    ]) +
    `\r\n--${boundary}--\r\n`,
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

try {
  await waitForHttp(`${serviceUrl}/v2/flows`, service);
  await waitForHttp(`${bffUrl}/api/health`, bff);
  await serviceToken();

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

  // 1. Throughput of a 50 MB body, alternating the two ways; the BFF's RSS sampled meanwhile.
  const times: Record<string, number[]> = { direct: [], 'via BFF': [] };
  const bffRss = rssPeakSampler(bff.pid!, 10);
  const baselineKb = bffRss.peakKb;
  let bffUploadCpu = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const route of [direct, viaBff]) {
      const target = await route.newIdentity();
      const cpuBefore = cpuMs(bff.pid!);
      times[route.name].push(await send(target, big));
      if (route === viaBff) bffUploadCpu += cpuMs(bff.pid!) - cpuBefore;
    }
  }
  const peakKb = bffRss.stop();

  // 2. Latency of a small send-input with 20 concurrent clients, each way: a 640×640 photo (the
  // service's image checks dominate), and custom fields only (the proxy's own cost shows).
  const latencies: Record<string, number[]> = {};
  const bffCpu: Record<string, number> = {};
  const kinds = [
    { kind: 'photo', flowId: 'global-passport', body: small, perClient: SMALL_PER_CLIENT },
    { kind: 'fields', flowId: 'mx-ine-full', body: fieldsOnly, perClient: SMALL_PER_CLIENT * 4 },
    // One client alone: the path's own added latency, without 20 clients queueing for 2 CPUs.
    {
      kind: 'fields, 1 client',
      flowId: 'mx-ine-full',
      body: fieldsOnly,
      perClient: SMALL_PER_CLIENT * 20,
      clients: 1,
    },
  ];
  for (const { kind, flowId, body, perClient, clients = CLIENTS } of kinds) {
    for (const route of [direct, viaBff, direct, viaBff]) {
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

  const mb = big.length / (1024 * 1024);
  const throughput = (name: string) => mb / (median(times[name]) / 1000);
  const directMbps = throughput('direct');
  const bffMbps = throughput('via BFF');
  const fmt = (n: number, digits = 1) => n.toFixed(digits);
  console.log(
    `\nBFF proxy benchmark (${ROUNDS} rounds of ${fmt(mb)} MB each way; ${CLIENTS} concurrent clients for small send-inputs; ` +
      `think time ${THINK_MS} ms; ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)})`,
  );
  console.log(
    `  50 MB upload, direct:        ${fmt(directMbps)} MB/s  (median ${fmt(median(times.direct), 0)} ms; ${times.direct.map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(
    `  50 MB upload, via BFF:       ${fmt(bffMbps)} MB/s  (median ${fmt(median(times['via BFF']), 0)} ms; ${times['via BFF'].map((t) => t.toFixed(0)).join(', ')})`,
  );
  console.log(`  throughput ratio BFF/direct: ${fmt(bffMbps / directMbps, 3)}   (target >= 0.9)`);
  console.log(
    `  BFF CPU per MB streamed: ${fmt(bffUploadCpu / (ROUNDS * (big.length / (1024 * 1024))), 2)} ms (the proxy's own cost, whatever the machine's load)`,
  );
  console.log(
    `  BFF RSS: ${fmt(baselineKb / 1024)} MB before, peak ${fmt(peakKb / 1024)} MB, growth ${fmt((peakKb - baselineKb) / 1024)} MB   (target < 48 MB)`,
  );
  for (const { kind, body } of kinds) {
    for (const name of ['direct', 'via BFF']) {
      const values = latencies[`${kind} ${name}`];
      console.log(
        `  small send-input (${kind}, ${body.length} B) ${name.padEnd(8)} p50 ${fmt(percentile(values, 50), 2)} ms  p99 ${fmt(percentile(values, 99), 2)} ms  (n=${values.length})`,
      );
    }
    const added = percentile(latencies[`${kind} via BFF`], 50) - percentile(latencies[`${kind} direct`], 50);
    console.log(`  added p50 latency (${kind}): ${fmt(added, 2)} ms   (target < 2 ms)`);
    console.log(
      `  BFF CPU per send-input (${kind}): ${fmt(bffCpu[kind] / latencies[`${kind} via BFF`].length, 2)} ms`,
    );
  }
} finally {
  await stopAll();
}
