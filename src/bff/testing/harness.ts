// Test support for the BFF's integration tests: the real service as a child process, the real
// BFF listening on 127.0.0.1, a browser-like client with a cookie jar, and generated images.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { bffPaths } from '@/shared/contract/bff-paths';
import { passportPhoto, selfiePhoto } from '../../../e2e/fixtures/face-photo';
import { freePort } from '../../../e2e/fixtures/free-port';
import { sendInputForm } from '../../../e2e/fixtures/send-input-form';
import { buildBffApp } from '../app';
import { loadConfig, type BffConfig } from '../config';

export const secrets = {
  SERVICE_CLIENT_ID: 'bff-test-client',
  SERVICE_CLIENT_SECRET: 'bff-test-client-secret',
  WEBHOOK_SECRET: 'bff-test-webhook-secret',
  STAFF_PASSWORD: 'bff-test-staff-password',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(100);
  }
}

/** The embedded service as `npm start` runs it, in its own process; stop and start it again at will. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  readonly url: string;

  constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  async start() {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
      env: {
        ...process.env,
        ...secrets,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        SERVICE_PORT: String(this.port),
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'warn',
        UPLOAD_WAIT_SECONDS: '1',
        WEBHOOK_RETRY_SECONDS: '1,1,2',
        PROCESSING_STEP_MS: '10',
        // The BFF must need only the routes the hosted API documents: the embedded service's
        // own extensions (GET /v2/flows, …) answer 404 in every BFF test.
        SERVICE_EXTENSIONS: 'off',
        // The sample files' markers (person, scenario) are read only with demo scenarios on.
        DEMO_SCENARIOS: 'on',
        // Most of these tests send no picture: the models load at a first check, if one comes.
        LOAD_CHECKS_AT_START: 'off',
        ...this.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`the service exited early (${code})`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      exited,
      eventually(
        async () => ((await fetch(`${this.url}/v2/flows`)).status ? true : undefined),
        30_000,
        'the service',
      ),
    ]);
  }

  async stop() {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }

  get pid() {
    return this.child?.pid;
  }
}

/** A BFF as `npm run bff` runs it, in its own process (tests of several instances on one database). */
export class BffProcess {
  private child: ChildProcess | null = null;
  readonly url: string;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  async start() {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/bff/main.ts'], {
      env: {
        ...process.env,
        ...secrets,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        STATIC_DIR: 'none',
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`the BFF exited early (${code})`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      exited,
      eventually(
        async () => ((await fetch(`${this.url}/api/staff/me`)).status ? true : undefined),
        // Loading the BFF's TypeScript takes a while on a busy machine, two of them side by side longer.
        90_000,
        'the BFF',
      ),
    ]);
  }

  async stop() {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
}

export interface Stack {
  service: ServiceProcess;
  bff: FastifyInstance;
  bffUrl: string;
  config: BffConfig;
  dataDir: string;
  stop(): Promise<void>;
}

/** The service (child process) and the BFF (this process) wired to each other, in a temp data dir. */
export async function startStack(
  options: {
    serviceEnv?: Record<string, string>;
    bffEnv?: Record<string, string>;
    /** The service's port, when the test puts something between the BFF and the service. */
    servicePort?: number;
  } = {},
): Promise<Stack> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'idv-bff-test-'));
  const servicePort = options.servicePort ?? (await freePort());
  const config = loadConfig({
    ...secrets,
    HOST: '127.0.0.1',
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${servicePort}`,
    DATA_DIR: path.join(dataDir, 'bff'),
    STATIC_DIR: 'none',
    SESSION_SECRET: 'bff-test-session-secret-0123456789',
    SSE_HEARTBEAT_MS: '500',
    ...options.bffEnv,
  });
  const bff = await buildBffApp(config, { logger: false });
  await bff.listen({ host: '127.0.0.1', port: 0 });
  const bffUrl = `http://127.0.0.1:${(bff.server.address() as AddressInfo).port}`;
  const service = new ServiceProcess(servicePort, path.join(dataDir, 'service'), {
    SERVICE_WEBHOOK_URL: `${bffUrl}/webhooks/verification`,
    ...options.serviceEnv,
  });
  await service.start();
  return {
    service,
    bff,
    bffUrl,
    config,
    dataDir,
    async stop() {
      await service.stop();
      await bff.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The stack of a test file and a staff browser signed in to it: started before the file's tests,
 * stopped after them. Read `stack` and `staff` inside the tests.
 */
export function stackWithStaff(options: Parameters<typeof startStack>[0] = {}) {
  const file = {} as { stack: Stack; staff: Browser };
  beforeAll(async () => {
    file.stack = await startStack(options);
    file.staff = new Browser(file.stack.bffUrl);
    const login = await file.staff.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD });
    if (login.status !== 200) throw new Error(`staff login answered ${login.status}`);
  }, 120_000);
  afterAll(async () => {
    await file.stack?.stop();
  });
  return file;
}

/** A browser: same-origin fetches to the BFF with its own cookie jar. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(this.baseUrl + pathname, { ...init, headers });
    for (const cookie of res.headers.getSetCookie()) {
      const pair = cookie.split(';')[0];
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return res;
  }

  post(pathname: string, json: unknown) {
    return this.fetch(pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
  }
}

/** A colourful, sharp-edged JPEG (checkerboard over gradients): not grey, not blurry, big enough. */
export async function makeImage(seed: number, width = 1000, height = 700): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  const cell = 24 + (seed % 5) * 8;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const on = (Math.floor(x / cell) + Math.floor(y / cell) + seed) % 2 === 1;
      pixels[i] = on ? 235 : (x * 255) / width;
      pixels[i + 1] = on ? (y * 255) / height : 30 + ((seed * 53) % 200);
      pixels[i + 2] = on ? (seed * 97) % 255 : 220;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A token of the service's, as the BFF gets one (client credentials): for calls the test makes itself. */
export async function serviceToken(serviceUrl: string) {
  const basic = Buffer.from(`${secrets.SERVICE_CLIENT_ID}:${secrets.SERVICE_CLIENT_SECRET}`).toString(
    'base64',
  );
  const response = await fetch(`${serviceUrl}/oauth`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

export const sign = (body: string, secret = secrets.WEBHOOK_SECRET) =>
  createHmac('sha256', secret).update(body).digest('hex');

/** Reads server-sent events from a streaming response until `stop` returns true for one. */
export async function readEvents(
  res: Response,
  stop: (event: { event: string; data: string }) => boolean,
  timeoutMs = 15_000,
): Promise<{ event: string; data: string }[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: { event: string; data: string }[] = [];
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`event stream ended; saw ${JSON.stringify(seen)}`);
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        const entry = event && data !== undefined ? { event, data } : { event: 'comment', data: block };
        seen.push(entry);
        if (stop(entry)) return seen;
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
}

/** A Blob of bytes, as a browser's File would be. */
export const toBlob = (bytes: Buffer | string, type = 'application/octet-stream') =>
  new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type });

let selfies = 0;

/** A send-input of the global-passport flow that the service accepts: an Argentine passport whose MRZ reads, a proof of residency, a selfie with a face. */
export async function passportForm() {
  return sendInputForm(
    [
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'passport', country: 'AR', page: 'front', filename: 'passport.jpg' },
      },
      {
        inputType: 'document-photo',
        group: 1,
        data: { type: 'proof-of-residency', country: 'AR', page: 'front', filename: 'residency.jpg' },
      },
      { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } },
    ],
    [
      // The service reads the passport's MRZ and looks for one face on the passport and the selfie.
      { field: 'document', name: 'passport.jpg', bytes: await passportPhoto('ARG') },
      { field: 'document', name: 'residency.jpg', bytes: await makeImage(2) },
      { field: 'selfie', name: 'selfie.jpg', bytes: await selfiePhoto(800, 800, ++selfies) },
    ],
  );
}

/**
 * A BFF alone in this process, its service a port nothing listens on: for what the BFF decides
 * before it calls the service (limits, guards). `env` adds settings.
 */
export async function startBffAlone(env: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-alone-'));
  const config = loadConfig({
    ...secrets,
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${await freePort()}`,
    DATA_DIR: dir,
    STATIC_DIR: 'none',
    ...env,
  });
  const app = await buildBffApp(config, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async stop() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
