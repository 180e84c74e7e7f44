// Two service instances and one BFF, each a process on a host of its own (a network namespace, or
// a loopback address where namespaces cannot be made: the test says which), on one PostgreSQL
// database (a schema of its own, dropped after). Between the BFF and the services a balancer that
// sends each kind of request to the instances in turn; the services' webhooks go to a receiver
// here that keeps every delivery and passes it on to the BFF. One instance is killed (SIGKILL)
// in the middle of two verifications: the other runs their deadlines.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffPaths } from '@/shared/contract/bff-paths';
import { createdVerificationSchema, verificationStatusSchema } from '@/shared/contract/bff-api';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import { sendInputForm, type UploadPart } from '../../../e2e/fixtures/send-input-form';
import { dropSchema, freshSchemaUrl, testDatabaseBase } from '../../../e2e/fixtures/test-database';
import { Browser, eventually } from '../../bff/testing/harness';
import { startBalancer } from '../testing/balancer';
import { faceImage, getToken, noiseImage, passportImage, waitFor } from '../testing/harness';
import { makeHosts, tcpRelay, type Hosts } from '../testing/hosts';
import { loadConfig } from '../config';

const secrets = {
  SERVICE_CLIENT_ID: 'multi-host-client',
  SERVICE_CLIENT_SECRET: 'multi-host-client-secret-0123456789',
  WEBHOOK_SECRET: 'multi-host-webhook-secret-0123456789',
  STAFF_PASSWORD: 'multi-host-staff-password',
};
/** The services' deadlines, short: a back side is waited for 3 s, an idle verification expires in 12 s. */
const UPLOAD_WAIT_SECONDS = 3;
const VERIFICATION_TTL_SECONDS = 12;

interface Delivery {
  body: string;
  json: { eventName: string; resource: string; step?: { id?: string; documentIndex?: number } };
  from: string;
}

const database = freshSchemaUrl('idv_multi_host');
const dataDir = mkdtempSync(path.join(tmpdir(), 'idv-multi-host-'));
const children: ChildProcess[] = [];
const deliveries: Delivery[] = [];
let hosts: Hosts;
let relay: Awaited<ReturnType<typeof tcpRelay>>;
let balancer: Awaited<ReturnType<typeof startBalancer>>;
let receiver: http.Server;
let receiverUrl: string;
let serviceUrl: Record<'a' | 'b', string>;
let bffUrl: string;
let killed: ChildProcess;

/** Starts `entry` on `host` and waits until `probe` answers at all; fails if it exits first. */
async function startOn(host: string, entry: string, env: NodeJS.ProcessEnv, probe: string) {
  const child = hosts.spawnNode(host, ['--import', 'tsx', entry], {
    ...process.env,
    ...secrets,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    ...env,
  });
  children.push(child);
  let exited = false;
  child.once('exit', () => (exited = true));
  await eventually(
    async () => {
      if (exited) throw new Error(`${entry} on ${host} exited (${child.exitCode ?? child.signalCode})`);
      return (
        (await fetch(probe)
          .then((r) => r.status)
          .catch(() => 0)) || undefined
      );
    },
    // Three processes load their TypeScript at once, on a machine that may be busy.
    80_000,
    `${entry} on ${host}`,
  );
  return child;
}

beforeAll(async () => {
  hosts = makeHosts(['a', 'b', 'bff']);
  console.log(`multi-host test on ${hosts.kind}: ${hosts.why}`);
  const pgUrl = new URL(testDatabaseBase);
  relay = await tcpRelay(hosts.hostAddress, { host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
  // The hosts reach PostgreSQL through the relay here: the same database and schema.
  const hostsDatabase = new URL(database.url);
  hostsDatabase.hostname = hosts.hostAddress;
  hostsDatabase.port = String(relay.port);

  const port = 8081;
  serviceUrl = { a: `http://${hosts.address.a}:${port}`, b: `http://${hosts.address.b}:${port}` };
  balancer = await startBalancer(hosts.hostAddress, [serviceUrl.a, serviceUrl.b]);
  bffUrl = `http://${hosts.address.bff}:8080`;
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries.push({
        body,
        json: JSON.parse(body) as Delivery['json'],
        from: req.socket.remoteAddress ?? '',
      });
      // Passed on to the BFF, whose answer is the receiver's: a failure there is retried by the service.
      fetch(`${bffUrl}/webhooks/verification`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': String(req.headers['x-signature']) },
        body,
      }).then(
        (answer) => res.writeHead(answer.status).end(),
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, hosts.hostAddress, resolve));
  receiverUrl = `http://${hosts.hostAddress}:${(receiver.address() as AddressInfo).port}/hooks`;

  const serviceEnv = (host: 'a' | 'b') => ({
    HOST: hosts.address[host],
    SERVICE_PORT: String(port),
    DATA_DIR: path.join(dataDir, host),
    DATABASE_URL: hostsDatabase.toString(),
    // Links name the balancer, the one address of the service (and the BFF's UPSTREAM_URL).
    PUBLIC_URL: balancer.url,
    SERVICE_WEBHOOK_URL: receiverUrl,
    TOKEN_SIGNING_KEYS: 'multi-host-token-signing-key-0123456789abcdef',
    UPLOAD_WAIT_SECONDS: String(UPLOAD_WAIT_SECONDS),
    VERIFICATION_TTL_SECONDS: String(VERIFICATION_TTL_SECONDS),
    WEBHOOK_RETRY_SECONDS: '0.5,1,2,4',
    PROCESSING_STEP_MS: '0',
    LIVENESS_CHALLENGE: 'off',
    DEMO_SCENARIOS: 'on',
    LOAD_CHECKS_AT_START: 'off',
  });
  const [a] = await Promise.all([
    startOn('a', 'src/service/main.ts', serviceEnv('a'), `${serviceUrl.a}/v2/flows`),
    startOn('b', 'src/service/main.ts', serviceEnv('b'), `${serviceUrl.b}/v2/flows`),
    startOn(
      'bff',
      'src/bff/main.ts',
      {
        HOST: hosts.address.bff,
        PORT: '8080',
        DATA_DIR: path.join(dataDir, 'bff'),
        DATABASE_URL: hostsDatabase.toString(),
        SESSION_SECRET: 'multi-host-session-secret-0123456789',
        UPSTREAM_URL: balancer.url,
        STATIC_DIR: 'none',
      },
      `${bffUrl}/api/staff/me`,
    ),
  ]);
  killed = a;
}, 90_000);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once('exit', resolve))
        : undefined,
    ),
  );
  await Promise.all([balancer?.close(), relay?.close()]);
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  hosts?.close();
  await dropSchema(database.schema);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A token of the services' (either issues it, both accept it). */
const authOf = async (url: string) => ({
  authorization: `Bearer ${await getToken(url, loadConfig({ ...secrets, DATA_DIR: dataDir }))}`,
});

const passport = async (): Promise<[unknown, UploadPart]> => [
  {
    inputType: 'document-photo',
    group: 0,
    data: { type: 'passport', country: 'BR', page: 'front', filename: 'p.jpg' },
  },
  { field: 'document', name: 'p.jpg', bytes: await passportImage('BRA') },
];
const residency = async (country: string): Promise<[unknown, UploadPart]> => [
  {
    inputType: 'document-photo',
    group: 1,
    data: { type: 'proof-of-residency', country, page: 'front', filename: 'r.jpg' },
  },
  { field: 'document', name: 'r.jpg', bytes: await noiseImage(800, 640) },
];
const selfie = async (): Promise<[unknown, UploadPart]> => [
  { inputType: 'selfie-photo', data: { filename: 's.jpg' } },
  { field: 'selfie', name: 's.jpg', bytes: await faceImage(640, 640) },
];
const form = (inputs: [unknown, UploadPart][]) =>
  sendInputForm(
    inputs.map(([descriptor]) => descriptor),
    inputs.map(([, file]) => file),
  );

/** Sends inputs straight to one instance; every one must be accepted. */
async function sendTo(
  url: string,
  auth: Record<string, string>,
  identity: string,
  inputs: [unknown, UploadPart][],
) {
  const answer = await fetch(`${url}/v2/identities/${identity}/send-input`, {
    method: 'POST',
    headers: auth,
    body: form(inputs),
  });
  const results = (await answer.json()) as { result: boolean }[];
  expect([answer.status, results.map((r) => r.result)], JSON.stringify(results)).toEqual([
    201,
    inputs.map(() => true),
  ]);
}

async function createOn(url: string, auth: Record<string, string>) {
  const answer = await fetch(`${url}/v2/verifications`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ flowId: 'global-passport' }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { id: string; identity: string };
}

const dataOf = async (url: string, auth: Record<string, string>, id: string) =>
  (await (await fetch(`${url}/v2/verifications/${id}`, { headers: auth })).json()) as {
    identity: { status: string };
    expired: boolean;
    inputs: { status: number }[];
  };

/** The ids of the media a verification's data links to. */
const mediaIdsOf = (data: unknown) => [
  ...new Set([...JSON.stringify(data).matchAll(/\/media\/([0-9a-f]{32})/g)].map((m) => m[1])),
];

const eventsOf = (id: string) =>
  deliveries.filter((d) => d.json.resource.endsWith(`/v2/verifications/${id}`));
const names = (id: string) => [...new Set(eventsOf(id).map((d) => d.json.eventName))];

describe('two service instances and a BFF, each on a host of its own, on one PostgreSQL database', () => {
  it('a whole verification through the BFF, its send-inputs taken by both instances, its media read from either', async () => {
    const browser = new Browser(bffUrl);
    const createdRes = await browser.post(bffPaths.verifications, { flowId: 'global-passport' });
    expect(createdRes.status).toBe(201);
    const created = createdVerificationSchema.parse(await createdRes.json());
    // Three send-inputs: the balancer gives them to A, B and A.
    for (const inputs of [[await passport()], [await residency('BR')], [await selfie()]]) {
      const res = await browser.fetch(bffPaths.sendInput(created.identity), {
        method: 'POST',
        body: form(inputs),
      });
      expect(res.status).toBe(201);
      expect(sendInputResponseSchema.parse(await res.json()).map((r) => r.result)).toEqual([true]);
    }
    const sends = balancer.routed.filter((r) => r.path.endsWith('/send-input'));
    expect(new Set(sends.map((r) => r.upstream))).toEqual(new Set([serviceUrl.a, serviceUrl.b]));

    // Processed on either; the BFF hears of it from the receiver and fetches the data through the balancer.
    const status = await eventually(
      async () => {
        const s = verificationStatusSchema.parse(
          await (await browser.fetch(bffPaths.status(created.verificationId))).json(),
        );
        return s.status === 'pending' || s.status === 'running' ? undefined : s;
      },
      90_000,
      'the verification finished, as the BFF sees it',
    );
    expect(['verified', 'reviewNeeded', 'rejected']).toContain(status.status);

    // Each medium, stored by the instance that took its send-input, the same bytes from both.
    const [authA, authB] = await Promise.all([authOf(serviceUrl.a), authOf(serviceUrl.b)]);
    const data = await dataOf(serviceUrl.b, authA, created.verificationId);
    expect(data.inputs.map((i) => i.status)).toEqual([200, 200, 200, 200]);
    const media = mediaIdsOf(data);
    expect(media.length).toBeGreaterThanOrEqual(3);
    for (const id of media) {
      const [fromA, fromB] = await Promise.all(
        [serviceUrl.a, serviceUrl.b].map(async (url, i) => {
          const answer = await fetch(`${url}/media/${id}`, { headers: i === 0 ? authB : authA });
          expect(answer.status).toBe(200);
          return Buffer.from(await answer.arrayBuffer());
        }),
      );
      expect(fromA.equals(fromB)).toBe(true);
    }
    await waitFor(async () => names(created.verificationId).includes('verification_completed'));
    expect(names(created.verificationId)).toEqual([
      'verification_started',
      'verification_inputs_completed',
      'step_completed',
      'verification_completed',
    ]);
    // Bounds, not speed targets: about 15 s alone; a loaded CI machine, with another test file
    // beside this one, has taken three times that.
  }, 150_000);

  it('an instance killed (SIGKILL) mid-flow: the other runs its deadlines, nothing is lost', async () => {
    const auth = await authOf(serviceUrl.a);
    // Left idle on A: it expires VERIFICATION_TTL_SECONDS after its last input.
    const idle = await createOn(serviceUrl.a, auth);
    await sendTo(serviceUrl.a, auth, idle.identity, [await passport()]);
    // Every input on A; a Mexican proof of residency may have a back, so A schedules the wait for
    // one (UPLOAD_WAIT_SECONDS) before processing.
    const waiting = await createOn(serviceUrl.a, auth);
    await sendTo(serviceUrl.a, auth, waiting.identity, [
      await passport(),
      await residency('MX'),
      await selfie(),
    ]);
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    expect((await fetch(`${serviceUrl.a}/v2/flows`).catch(() => null))?.status).toBeUndefined();

    // B runs both deadlines: the end of the wait (then the processing) and the expiry.
    const done = await waitFor(async () => {
      const d = await dataOf(serviceUrl.b, auth, waiting.id);
      return ['verified', 'reviewNeeded', 'rejected'].includes(d.identity.status) ? d : null;
    }, 90_000);
    expect(done.inputs.map((i) => i.status)).toEqual([200, 200, 200, 200]);
    for (const id of mediaIdsOf(done))
      expect((await fetch(`${serviceUrl.b}/media/${id}`, { headers: auth })).status).toBe(200);
    await waitFor(async () => (await dataOf(serviceUrl.b, auth, idle.id)).expired, 90_000);
    await waitFor(
      async () =>
        names(waiting.id).includes('verification_completed') &&
        names(idle.id).includes('verification_expired'),
    );
    expect(names(waiting.id)).toEqual([
      'verification_started',
      'verification_postponed',
      'verification_inputs_completed',
      'step_completed',
      'verification_completed',
    ]);
    expect(names(idle.id)).toEqual(['verification_started', 'verification_expired']);
    // Later requests through the balancer go to B alone: the BFF goes on.
    const browser = new Browser(bffUrl);
    expect((await browser.post(bffPaths.verifications, { flowId: 'global-passport' })).status).toBe(201);
  }, 150_000);

  it('no event was delivered twice under different ids', async () => {
    // An event's id is its body (the BFF stores one per body hash): a redelivery repeats it; the
    // same event written twice (a job run twice, by two instances) would not.
    const ids = new Map<string, Set<string>>();
    for (const { body, json } of deliveries) {
      const key = [json.resource, json.eventName, json.step?.id ?? '', json.step?.documentIndex ?? ''].join(
        ' ',
      );
      ids.set(key, (ids.get(key) ?? new Set()).add(body));
    }
    expect(ids.size).toBeGreaterThanOrEqual(10);
    expect([...ids].filter(([, bodies]) => bodies.size > 1).map(([key]) => key)).toEqual([]);
    // Delivered by the instances (one at a time per receiver, either of them), from their own
    // addresses; on loopback a connection to 127.0.0.1 comes from 127.0.0.1 whoever makes it.
    const from = new Set(deliveries.map((d) => d.from.replace(/^::ffff:/, '')));
    const senders = hosts.kind === 'network namespaces' ? [hosts.address.a, hosts.address.b] : ['127.0.0.1'];
    expect([...from].filter((address) => !senders.includes(address))).toEqual([]);
  });
});
