// `npm run bench:service`: the embedded service in a child process under a realistic send-input
// load (the two sides of an ID card + a selfie per request) at 1, 4 and 16 concurrent clients,
// then whole verifications to the end of processing (the face match is computed then), then one 50 MB upload. Prints requests/s, p50/p99 latency, the service's CPU time per send-input (all its threads) and its peak RSS, beside a
// baseline measured in the same run: plain full decodes of the same three images (sharp, in this
// process), one request's worth after another; and against ORIGINAL_REQ_PER_S, the figure the
// service gave at 4 clients before its images were decoded once, shrunk on load, in a worker pool.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { devDefaults } from '@/server-shared/dev-defaults';
import { facePhoto } from '../fixtures/face-photo';
import { globalPassportInputs, mxCustomFieldsInputs, sendInputForm } from '../fixtures/send-input-form';
import { streamedMultipart } from '../fixtures/streamed-multipart';
import { freePort } from '../fixtures/free-port';
import { samplePath } from '../fixtures/samples';
import {
  buildBenchServers,
  compareStartUp,
  loopMonitor,
  printStartUp,
  sleep,
  startNode,
  stopNode,
  waitForHttp,
} from './lib/node-process';
import { compareBefore } from './lib/before-after';
import { percentile } from './lib/percentile';
import { cpuMs, rssPeakSampler } from './lib/proc-stats';

const levels = (process.env.BENCH_CLIENTS ?? '1,4,16').split(',').map(Number);
const requestsPerLevel = Number(process.env.BENCH_REQUESTS ?? 48);
/** send-inputs per second at 4 clients on this machine before the one-decode work (issue 10). */
const ORIGINAL_REQ_PER_S = 5.7;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-service-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const serviceEnv = {
  ...process.env,
  NODE_ENV: 'development',
  SERVICE_PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SERVICE_WEBHOOK_URL: 'none',
  PROCESSING_STEP_MS: '0',
  UPLOAD_WAIT_SECONDS: '600',
  LOG_LEVEL: 'warn',
};
// The service as `npm start` runs it: built (src/build/servers.ts); its start-up is timed against
// the TypeScript sources through tsx, as it ran before.
const built = await buildBenchServers();
const startUp = await compareStartUp(built.service, 'src/service/main.ts', serviceEnv, `${url}/v2/flows`);
const monitor = loopMonitor(path.join(dataDir, 'loop.json'));
const child = startNode(built.service, { ...serviceEnv, ...monitor.env }, 'inherit', monitor.nodeOptions);

const rss = rssPeakSampler(child.pid!, 20);
const mbOfKb = (kb: number) => kb / 1024;

async function token() {
  await waitForHttp(`${url}/v2/flows`, child);
  const basic = Buffer.from(`${devDefaults.SERVICE_CLIENT_ID}:${devDefaults.SERVICE_CLIENT_SECRET}`).toString(
    'base64',
  );
  const response = await fetch(`${url}/oauth`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  if (!response.ok) throw new Error(`token: HTTP ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

try {
  const auth = { authorization: `Bearer ${await token()}` };
  await sleep(300);
  printStartUp('service', startUp);
  console.log(`service RSS after start, idle: ${mbOfKb(rss.reset()).toFixed(0)} MB`);
  const { default: sharpOf } = await import('sharp');
  // The committed Brazilian ID's sides, enlarged to 2000 px wide (about 0.3 MB each at quality 95),
  // so that the document finder sees documents and the face checks run on the front's portrait.
  const enlarged = (file: string) =>
    sharpOf(fs.readFileSync(samplePath(file)))
      .resize({ width: 2000 })
      .jpeg({ quality: 95 })
      .toBuffer();
  const [front, back, selfie] = await Promise.all([
    enlarged('br-national-id-front.jpg'),
    enlarged('br-national-id-back.jpg'),
    facePhoto(1000, 1000, { seed: 37 }),
  ]);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
  console.log(
    `files: front ${mb(front.length)} MB, back ${mb(back.length)} MB, selfie ${mb(selfie.length)} MB`,
  );
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

  async function newIdentity() {
    const created = await fetch(`${url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'br-bank' }),
    });
    return ((await created.json()) as { identity: string }).identity;
  }

  async function oneRequest() {
    const identity = await newIdentity();
    const form = sendInputForm(inputs, [
      { field: 'document', name: 'front.jpg', bytes: front },
      { field: 'document', name: 'back.jpg', bytes: back },
      { field: 'selfie', name: 'selfie.jpg', bytes: selfie },
    ]);
    const started = performance.now();
    const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    const results = (await response.json()) as { result: boolean }[];
    const ms = performance.now() - started;
    if (response.status !== 201 || !results.every((r) => r.result)) {
      throw new Error(`send-input: ${response.status} ${JSON.stringify(results)}`);
    }
    return ms;
  }

  await oneRequest(); // warm-up: sharp and the code paths load once
  await monitor.longestStall(child);

  // Baseline: what decoding each of the three images once, in full, costs here (no checks at all).
  const sharp = sharpOf;
  const plainDecode = () =>
    Promise.all([front, back, selfie].map((image) => sharp(image).rotate().raw().toBuffer()));
  await plainDecode();
  const decodeStarted = performance.now();
  const decodeRounds = 8;
  for (let i = 0; i < decodeRounds; i++) await plainDecode();
  const decodeSetsPerS = decodeRounds / ((performance.now() - decodeStarted) / 1000);
  console.log(
    `\nbaseline: plain full decodes of one request's three images (sharp, this process): ${decodeSetsPerS.toFixed(1)} sets/s; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    '\nclients  requests  req/s   p50 ms   p99 ms   CPU ms/req   peak RSS MB   longest event-loop stall ms   req/s vs baseline, vs original',
  );
  for (const clients of levels) {
    rss.reset();
    const latencies: number[] = [];
    let next = 0;
    // The service's CPU time (all its threads) per send-input: what bounds the rate on 2 cores.
    const cpuBefore = cpuMs(child.pid!);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < requestsPerLevel) {
          next++;
          latencies.push(await oneRequest());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuPerRequest = (cpuMs(child.pid!) - cpuBefore) / latencies.length;
    console.log(
      `${String(clients).padStart(7)}  ${String(latencies.length).padStart(8)}  ${(latencies.length / seconds).toFixed(1).padStart(5)}  ${percentile(latencies, 50).toFixed(0).padStart(7)}  ${percentile(latencies, 99).toFixed(0).padStart(7)}  ${cpuPerRequest.toFixed(0).padStart(10)}  ${mbOfKb(rss.peakKb).toFixed(0).padStart(11)}   ${(await monitor.longestStall(child)).toFixed(0).padStart(27)}` +
        `   ${(latencies.length / seconds / decodeSetsPerS).toFixed(2)}× the decodes, ${(latencies.length / seconds / ORIGINAL_REQ_PER_S).toFixed(1)}× ${ORIGINAL_REQ_PER_S} req/s (load ${os.loadavg()[0].toFixed(1)})`,
    );
  }

  // Whole verifications, to the end of processing: the face match's descriptors are taken then
  // (not while the send-input waits), so the time a verification takes to complete is printed
  // beside its send-input's. global-passport: the passport and selfie samples (the same drawn
  // face, a readable MRZ) and a proof of residency, in one send-input, then polled to its end.
  const [passportBytes, residencyBytes, selfieBytes] = [
    'gb-passport.jpg',
    'gb-proof-of-residency.jpg',
    'selfie.jpg',
  ].map((f) => fs.readFileSync(samplePath(f)));
  async function wholeVerification() {
    const created = await fetch(`${url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'global-passport' }),
    });
    const { id, identity } = (await created.json()) as { id: string; identity: string };
    const started = performance.now();
    const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
      method: 'POST',
      headers: auth,
      body: sendInputForm(globalPassportInputs, [
        { field: 'document', name: 'passport.jpg', bytes: passportBytes },
        { field: 'document', name: 'residency.jpg', bytes: residencyBytes },
        { field: 'selfie', name: 'selfie.jpg', bytes: selfieBytes },
      ]),
    });
    const results = (await response.json()) as { result: boolean }[];
    const answered = performance.now() - started;
    if (response.status !== 201 || !results.every((r) => r.result)) {
      throw new Error(`whole flow send-input: ${response.status} ${JSON.stringify(results)}`);
    }
    for (;;) {
      const data = (await (await fetch(`${url}/v2/verifications/${id}`, { headers: auth })).json()) as {
        identity: { status: string };
        documents?: { steps: { id: string }[] }[];
      };
      if (!['pending', 'running'].includes(data.identity.status)) {
        if (!data.documents?.[0]?.steps.some((s) => s.id === 'facematch'))
          throw new Error('no facematch step');
        return { answered, completed: performance.now() - started };
      }
      await sleep(20);
    }
  }
  // BENCH_WHOLE=0 skips the phase.
  const wholeCount = Number(process.env.BENCH_WHOLE ?? 16);
  if (wholeCount > 0) {
    await wholeVerification();
    const wholeClients = 4;
    const answeredMs: number[] = [];
    const completedMs: number[] = [];
    let nextWhole = 0;
    const wholeStarted = performance.now();
    await Promise.all(
      Array.from({ length: wholeClients }, async () => {
        while (nextWhole < wholeCount) {
          nextWhole++;
          const { answered, completed } = await wholeVerification();
          answeredMs.push(answered);
          completedMs.push(completed);
        }
      }),
    );
    const wholeSeconds = (performance.now() - wholeStarted) / 1000;
    console.log(
      `\nwhole verifications (global-passport, ${wholeClients} clients, ${wholeCount}): ${(wholeCount / wholeSeconds).toFixed(1)} completed/s; send-input answered p50 ${percentile(answeredMs, 50).toFixed(0)} / p99 ${percentile(answeredMs, 99).toFixed(0)} ms; completed (face match in) p50 ${percentile(completedMs, 50).toFixed(0)} / p99 ${percentile(completedMs, 99).toFixed(0)} ms (load ${os.loadavg()[0].toFixed(1)})`,
    );
  }

  // One 50 MB upload, streamed by the client too, to see how much the service's RSS grows.
  async function bigUpload(bytes: number, label: string) {
    const identity = await newIdentity();
    const { body, contentType } = streamedMultipart(
      [idSide('front')],
      'document',
      'big.jpg',
      bytes,
      front.subarray(0, 4), // a JPEG signature, so the file passes the format sniffing
    );
    await sleep(300);
    const before = mbOfKb(rss.reset());
    const started = performance.now();
    const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
      method: 'POST',
      headers: { ...auth, 'content-type': contentType },
      body,
      duplex: 'half',
    } as RequestInit);
    await response.arrayBuffer();
    const ms = performance.now() - started;
    const peak = mbOfKb(rss.peakKb);
    console.log(
      `${label}: HTTP ${response.status} in ${ms.toFixed(0)} ms; service RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (growth ${(peak - before).toFixed(1)} MB, target < 64)`,
    );
  }
  console.log('');
  // A name no descriptor gives: the whole file is streamed to disk, then discarded (no image decode).
  await bigUpload(50 * 1024 * 1024, '50 MB upload (stored, then unmatched)');
  await bigUpload(60 * 1024 * 1024, '60 MB upload (refused at 50 MB)');

  // The SQLite default against the service before issue 36 (lib/before-after.ts; BENCH_BEFORE=0 skips).
  await compareBefore(
    [
      {
        name: 'custom-fields send-input (no file: the store and HTTP)',
        flowId: 'mx-ine-full',
        form: () => sendInputForm(mxCustomFieldsInputs),
        clients: 4,
        requests: Number(process.env.BENCH_BEFORE_LIGHT ?? 200),
      },
      {
        name: "image send-input (an ID card's two sides and a selfie: the checks)",
        flowId: 'br-bank',
        form: () =>
          sendInputForm(inputs, [
            { field: 'document', name: 'front.jpg', bytes: front },
            { field: 'document', name: 'back.jpg', bytes: back },
            { field: 'selfie', name: 'selfie.jpg', bytes: selfie },
          ]),
        clients: 4,
        requests: Number(process.env.BENCH_BEFORE_IMAGES ?? 8),
      },
    ],
    Number(process.env.BENCH_BEFORE_ROUNDS ?? 4),
  );
} finally {
  rss.stop();
  await stopNode(child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
