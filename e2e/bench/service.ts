// `npm run bench:service`: the embedded service in a child process under a realistic send-input
// load (two ~2 MB document photos + a selfie per request) at 1, 4 and 16 concurrent clients,
// then one 50 MB upload. Prints requests/s, p50/p99 latency and the service's peak RSS.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { devDefaults } from '@/shared/dev-defaults';

const levels = (process.env.BENCH_CLIENTS ?? '1,4,16').split(',').map(Number);
const requestsPerLevel = Number(process.env.BENCH_REQUESTS ?? 48);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-bench-service-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
  env: {
    ...process.env,
    NODE_ENV: 'development',
    SERVICE_PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SERVICE_WEBHOOK_URL: 'none',
    PROCESSING_STEP_MS: '0',
    UPLOAD_WAIT_SECONDS: '600',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

const rssMb = () => {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);

async function token() {
  for (let i = 0; i < 200; i++) {
    try {
      const basic = Buffer.from(
        `${devDefaults.SERVICE_CLIENT_ID}:${devDefaults.SERVICE_CLIENT_SECRET}`,
      ).toString('base64');
      const response = await fetch(`${url}/oauth`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      if (response.ok) return ((await response.json()) as { access_token: string }).access_token;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not start');
}

/** Photo-like noise: incompressible enough that a 2000×1500 JPEG weighs about 2 MB. */
async function photo(width: number, height: number, seed: number) {
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < pixels.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    pixels[i] = x & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

try {
  const auth = { authorization: `Bearer ${await token()}` };
  await new Promise((r) => setTimeout(r, 300));
  console.log(`service RSS after start, idle: ${rssMb().toFixed(0)} MB`);
  const [front, back, selfie] = await Promise.all([
    photo(2000, 1500, 11),
    photo(2000, 1500, 23),
    photo(1000, 1000, 37),
  ]);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
  console.log(
    `files: front ${mb(front.length)} MB, back ${mb(back.length)} MB, selfie ${mb(selfie.length)} MB`,
  );
  const inputs = JSON.stringify([
    {
      inputType: 'document-photo',
      group: 0,
      data: { type: 'national-id', country: 'BR', page: 'front', filename: 'front.jpg' },
    },
    {
      inputType: 'document-photo',
      group: 0,
      data: { type: 'national-id', country: 'BR', page: 'back', filename: 'back.jpg' },
    },
    { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } },
  ]);

  async function oneRequest() {
    const created = await fetch(`${url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'br-bank' }),
    });
    const { identity } = (await created.json()) as { identity: string };
    const form = new FormData();
    form.append('inputs', inputs);
    form.append('document', new Blob([new Uint8Array(front)]), 'front.jpg');
    form.append('document', new Blob([new Uint8Array(back)]), 'back.jpg');
    form.append('selfie', new Blob([new Uint8Array(selfie)]), 'selfie.jpg');
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
  const quantile = (sorted: number[], q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  console.log('\nclients  requests  req/s   p50 ms   p99 ms   peak RSS MB');
  for (const clients of levels) {
    peak = rssMb();
    const latencies: number[] = [];
    let next = 0;
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
    latencies.sort((a, b) => a - b);
    console.log(
      `${String(clients).padStart(7)}  ${String(latencies.length).padStart(8)}  ${(latencies.length / seconds).toFixed(1).padStart(5)}  ${quantile(latencies, 0.5).toFixed(0).padStart(7)}  ${quantile(latencies, 0.99).toFixed(0).padStart(7)}  ${peak.toFixed(0).padStart(11)}`,
    );
  }

  // One 50 MB upload, streamed by the client too, to see how much the service's RSS grows.
  async function bigUpload(bytes: number, label: string) {
    const created = await fetch(`${url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'br-bank' }),
    });
    const { identity } = (await created.json()) as { identity: string };
    const boundary = `bench${Date.now()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="inputs"\r\n\r\n` +
        JSON.stringify([
          {
            inputType: 'document-photo',
            group: 0,
            data: { type: 'national-id', country: 'BR', page: 'front', filename: 'front.jpg' },
          },
        ]) +
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.jpg"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 0x5a);
    front.copy(chunk, 0, 0, 4); // a JPEG signature, so the file passes the format sniffing
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= bytes) {
          controller.enqueue(tail);
          controller.close();
          return;
        }
        const n = Math.min(chunk.length, bytes - sent);
        controller.enqueue(new Uint8Array(chunk.subarray(0, n)));
        sent += n;
      },
    });
    await new Promise((r) => setTimeout(r, 300));
    const before = rssMb();
    peak = before;
    const started = performance.now();
    const response = await fetch(`${url}/v2/identities/${identity}/send-input`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    await response.arrayBuffer();
    const ms = performance.now() - started;
    console.log(
      `${label}: HTTP ${response.status} in ${ms.toFixed(0)} ms; service RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (growth ${(peak - before).toFixed(1)} MB, target < 64)`,
    );
  }
  console.log('');
  // A name no descriptor gives: the whole file is streamed to disk, then discarded (no image decode).
  await bigUpload(50 * 1024 * 1024, '50 MB upload (stored, then unmatched)');
  await bigUpload(60 * 1024 * 1024, '60 MB upload (refused at 50 MB)');
} finally {
  clearInterval(sampler);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
