// Helpers for the service's integration tests: a real service on 127.0.0.1 (port 0), real
// multipart bodies, real images made with sharp, and a real webhook receiver.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tempDataDir } from './temp-dirs';
import { facePhoto, passportPhoto } from '../../../e2e/fixtures/face-photo';
import { noisePhoto } from '../../../e2e/fixtures/noise-photo';
import { sendInputForm, type UploadPart } from '../../../e2e/fixtures/send-input-form';
import { buildServiceApp } from '../http/app';
import { loadConfig, type ServiceConfig } from '../config';
import { signBody } from '../storage/outbox';

export interface RunningService {
  url: string;
  config: ServiceConfig;
  dataDir: string;
  auth: { authorization: string };
  close(): Promise<void>;
}

export async function startService(
  env: Record<string, string> = {},
  dataDir = tempDataDir(),
): Promise<RunningService> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    SERVICE_PORT: '0',
    SERVICE_WEBHOOK_URL: 'none',
    PROCESSING_STEP_MS: '0',
    WEBHOOK_RETRY_SECONDS: '0.2,0.2',
    // The tests' webhook receivers listen on loopback, which the outbound policy refuses by default.
    OUTBOUND_ALLOWED: '127.0.0.1/32',
    // The sample videos were recorded before any challenge was asked: the tests of the challenge
    // turn it on.
    LIVENESS_CHALLENGE: 'off',
    // The sample files carry their person and scenario in markers, read only with demo scenarios on
    // (off by default; tests of the off state pass DEMO_SCENARIOS: 'off').
    DEMO_SCENARIOS: 'on',
    ...env,
  });
  const app = buildServiceApp(config);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = await getToken(url, config);
  return { url, config, dataDir, auth: { authorization: `Bearer ${token}` }, close: () => app.close() };
}

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

export async function getToken(url: string, config: ServiceConfig) {
  const response = await fetch(`${url}/oauth`, {
    method: 'POST',
    headers: {
      authorization: basicAuth(config.clientId, config.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (response.status !== 200) throw new Error(`token: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export interface Created {
  id: string;
  identity: string;
}

export async function createVerification(
  svc: RunningService,
  flowId: string,
  metadata?: Record<string, unknown>,
) {
  const response = await fetch(`${svc.url}/v2/verifications`, {
    method: 'POST',
    headers: { ...svc.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ flowId, ...(metadata ? { metadata } : {}) }),
  });
  if (response.status !== 200) throw new Error(`create: ${response.status} ${await response.text()}`);
  return (await response.json()) as Created & Record<string, unknown>;
}

export async function sendInput(
  svc: RunningService,
  identity: string,
  inputs: unknown,
  files: UploadPart[] = [],
) {
  const response = await fetch(`${svc.url}/v2/identities/${identity}/send-input`, {
    method: 'POST',
    headers: svc.auth,
    body: sendInputForm(inputs, files),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

export async function getVerification(svc: RunningService, id: string) {
  const response = await fetch(`${svc.url}/v2/verifications/${id}`, { headers: svc.auth });
  return (await response.json()) as Record<string, unknown> & { identity: { status: string } };
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  // A bound on a wait, not a speed target: generous so that a loaded CI machine does not fail a
  // correct test (speed is measured by the benches).
  timeoutMs = 30_000,
  everyMs = 25,
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function waitForStatus(svc: RunningService, id: string, statuses: string[], timeoutMs = 30_000) {
  return waitFor(async () => {
    const v = await getVerification(svc, id);
    return statuses.includes(v.identity.status) ? v : null;
  }, timeoutMs);
}

/** A detailed, colourful photo-like JPEG or PNG, different at each call. */
export const noiseImage = (width: number, height: number, format: 'jpeg' | 'png' = 'jpeg') =>
  noisePhoto(width, height, { format });

/**
 * A unique photo with the samples' drawn face: a selfie, or the front of a document type that
 * carries a portrait (the service looks for one where the flow compares faces).
 */
export const faceImage = (width: number, height: number, format: 'jpeg' | 'png' = 'jpeg') =>
  facePhoto(width, height, { format });

/** A passport data page whose MRZ (valid check digits) names the ICAO state, e.g. ARG. */
export const passportImage = (state: string) => passportPhoto(state);

/**
 * Every input of `global-passport` in one send-input (a Brazilian passport, a proof of residency
 * of `residencyCountry`, a selfie), so that the verification is processed.
 */
export async function completeGlobalPassport(svc: RunningService, identity: string, residencyCountry = 'BR') {
  return sendInput(
    svc,
    identity,
    [
      {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'passport', country: 'BR', page: 'front', filename: 'p.jpg' },
      },
      {
        inputType: 'document-photo',
        group: 1,
        data: { type: 'proof-of-residency', country: residencyCountry, page: 'front', filename: 'r.jpg' },
      },
      { inputType: 'selfie-photo', data: { filename: 's.jpg' } },
    ],
    [
      { field: 'document', name: 'p.jpg', bytes: await passportImage('BRA') },
      { field: 'document', name: 'r.jpg', bytes: await noiseImage(800, 640) },
      { field: 'selfie', name: 's.jpg', bytes: await faceImage(640, 640) },
    ],
  );
}

/** Adds a JPEG COM segment right after SOI: how a sample carries a scenario or person marker. */
export function withJpegComment(jpeg: Buffer, text: string) {
  const body = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

export interface ReceivedHook {
  body: string;
  json: Record<string, unknown>;
  signature: string | undefined;
  validSignature: boolean;
}

/** A real webhook receiver; `failNext` makes the next deliveries answer 500. */
export async function startReceiver(secret: string) {
  const received: ReceivedHook[] = [];
  const state = { failNext: 0, failures: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.failNext > 0) {
        state.failNext--;
        state.failures++;
        res.writeHead(500).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-signature'] as string | undefined;
      received.push({
        body,
        json: JSON.parse(body),
        signature,
        validSignature: signature === signBody(body, secret),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A service whose webhooks go, signed with `secret`, to a real receiver of its own. */
export async function startServiceWithReceiver(secret: string, env: Record<string, string> = {}) {
  const hooks = await startReceiver(secret);
  const svc = await startService({ WEBHOOK_SECRET: secret, SERVICE_WEBHOOK_URL: hooks.url, ...env });
  return {
    svc,
    hooks,
    close: async () => {
      await svc.close();
      await hooks.close();
    },
  };
}
