// Soak: the service and the BFF as `npm start` runs them, 20 clients uploading 4 MB photos and
// 200 small requests in flight for 60 s; the service is killed (SIGKILL) at 25 s and started again
// at 35 s. Then: every media file has its record and every record its file, every webhook event
// the service wrote reached the BFF exactly once, health recovered; resident memory of each process.
// Environment: SOAK_SECONDS (60), SOAK_UPLOADERS (20), SOAK_SMALL (200).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { withAllocatorEnv } from '@/server-shared/allocator-env';
import { freePort } from '../fixtures/free-port';
import { noisePhoto } from '../fixtures/noise-photo';
import { sample } from '../fixtures/samples';
import { globalPassportInputs } from '../fixtures/send-input-form';
import { startNode, sleep, stopNode, waitForHttp } from './lib/node-process';
import { rssKb, rssPeakSampler } from './lib/proc-stats';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const UPLOADERS = Number(process.env.SOAK_UPLOADERS ?? 20);
const SMALL = Number(process.env.SOAK_SMALL ?? 200);
const KILL_AT = (SECONDS * 25) / 60;
const RESTART_AT = (SECONDS * 35) / 60;

const dir = mkdtempSync(path.join(tmpdir(), 'idv-soak-'));
const [bffPort, servicePort] = [await freePort(), await freePort()];
const bffUrl = `http://127.0.0.1:${bffPort}`;
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const secrets = {
  SERVICE_CLIENT_ID: 'soak-client',
  SERVICE_CLIENT_SECRET: 'soak-client-secret',
  WEBHOOK_SECRET: 'soak-webhook-secret',
  STAFF_PASSWORD: 'soak-staff-password',
  SESSION_SECRET: 'soak-session-secret-0123456789abcdef',
};
const common = withAllocatorEnv({
  ...process.env,
  ...secrets,
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
});
const serviceEnv = {
  ...common,
  SERVICE_PORT: String(servicePort),
  PORT: String(bffPort),
  DATA_DIR: path.join(dir, 'service'),
  WEBHOOK_RETRY_SECONDS: '1,2,3,5,8,13',
  PROCESSING_STEP_MS: '20',
  UPLOAD_WAIT_SECONDS: '2',
};
const bffEnv = {
  ...common,
  PORT: String(bffPort),
  UPSTREAM_URL: serviceUrl,
  DATA_DIR: path.join(dir, 'bff'),
  STATIC_DIR: 'none',
  RATE_LIMIT_MAX: '1000000',
  // The 20 clients all come from 127.0.0.1: the per-address cap of uploads under way (16 by
  // default) would close the connections of the others mid-body.
  BODIES_PER_ADDRESS: '1000',
};

let service = startNode('src/service/main.ts', serviceEnv);
const bff = startNode('src/bff/main.ts', bffEnv);
await waitForHttp(`${serviceUrl}/v2/flows`, service);
await waitForHttp(`${bffUrl}/api/health`, bff);
const idle = { service: rssKb(service.pid!), bff: rssKb(bff.pid!) };
let servicePeak = rssPeakSampler(service.pid!, 100);
const bffPeak = rssPeakSampler(bff.pid!, 100);
let servicePeakKb = 0;

const photo = await noisePhoto(2900, 2100, { quality: 85, seed: 7 });
const passport = readFileSync(sample('gb-passport.jpg').path);
const selfie = readFileSync(sample('selfie.jpg').path);
const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;
const counts = { uploads: 0, uploadErrors: 0, small: 0, smallErrors: 0 };
const statuses = new Map<number, number>();
const verifications: string[] = [];

async function createVerification() {
  const response = await fetch(`${bffUrl}/api/verifications`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ flowId: 'global-passport' }),
  });
  if (response.status !== 201) throw new Error(`create ${response.status}`);
  const cookie = response.headers.getSetCookie()[0].split(';')[0];
  const body = (await response.json()) as { verificationId: string; identity: string };
  verifications.push(body.verificationId);
  return { ...body, cookie };
}

async function uploader() {
  while (elapsed() < SECONDS) {
    try {
      const v = await createVerification();
      // The whole flow in one send-input, so that each upload is accepted, stored and processed
      // (webhook events follow): the passport and the selfie are samples the checks pass, the
      // proof of residency is the 4 MB photo.
      const form = new FormData();
      form.append('inputs', JSON.stringify(globalPassportInputs));
      form.append('document', new Blob([new Uint8Array(passport)], { type: 'image/jpeg' }), 'passport.jpg');
      form.append('document', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'residency.jpg');
      form.append('selfie', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), 'selfie.jpg');
      const response = await fetch(`${bffUrl}/api/identities/${v.identity}/send-input`, {
        method: 'POST',
        headers: { cookie: v.cookie },
        body: form,
      });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 201) counts.uploads++;
      else counts.uploadErrors++;
    } catch {
      // No answer at all (or no verification created): the service is down.
      counts.uploadErrors++;
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
      await sleep(200);
    }
  }
}

async function smallClient(i: number) {
  while (elapsed() < SECONDS) {
    const id = verifications[i % Math.max(1, verifications.length)];
    const url = i % 2 === 0 || !id ? `${bffUrl}/api/health` : `${bffUrl}/api/flows`;
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      counts.small++;
      if (response.status >= 500 && !url.endsWith('/health')) counts.smallErrors++;
    } catch {
      counts.smallErrors++;
    }
    await sleep(50);
  }
}

const chaos = (async () => {
  await sleep(KILL_AT * 1000);
  servicePeakKb = servicePeak.stop();
  service.kill('SIGKILL');
  console.log(`${elapsed().toFixed(1)} s: service killed (SIGKILL)`);
  await sleep((RESTART_AT - KILL_AT) * 1000);
  service = startNode('src/service/main.ts', serviceEnv);
  await waitForHttp(`${serviceUrl}/v2/flows`, service);
  servicePeak = rssPeakSampler(service.pid!, 100);
  console.log(`${elapsed().toFixed(1)} s: service started again`);
})();

await Promise.all([
  ...Array.from({ length: UPLOADERS }, uploader),
  ...Array.from({ length: SMALL }, (_, i) => smallClient(i)),
  chaos,
]);
console.log(`${elapsed().toFixed(1)} s: load over`);

// Let the outbox drain (its retries after the restart), then compare the two sides.
const serviceDb = () => new Database(path.join(serviceEnv.DATA_DIR, 'service.sqlite'), { readonly: true });
const bffDb = () => new Database(path.join(bffEnv.DATA_DIR, 'bff.sqlite'), { readonly: true });
for (let i = 0; i < 120; i++) {
  const db = serviceDb();
  const { n } = db.prepare('SELECT count(*) AS n FROM outbox WHERE delivered_at IS NULL').get() as {
    n: number;
  };
  db.close();
  if (n === 0) break;
  await sleep(500);
}
await sleep(1000);

const sdb = serviceDb();
const records = new Set((sdb.prepare('SELECT id FROM media').all() as { id: string }[]).map((r) => r.id));
const outbox = sdb.prepare('SELECT body, delivered_at, failed_at FROM outbox').all() as {
  body: string;
  delivered_at: number | null;
  failed_at: number | null;
}[];
sdb.close();
const files = readdirSync(path.join(serviceEnv.DATA_DIR, 'media'));
const filesWithoutRecord = files.filter((f) => !records.has(f));
const recordsWithoutFile = [...records].filter((id) => !files.includes(id));

const bdb = bffDb();
const received = bdb.prepare('SELECT body_hash FROM events').all() as { body_hash: string }[];
bdb.close();
const receivedHashes = received.map((r) => r.body_hash);
const sentHashes = outbox.map((r) => createHash('sha256').update(r.body).digest('hex'));
const missing = sentHashes.filter((h) => !receivedHashes.includes(h)).length;
const twice = receivedHashes.length - new Set(receivedHashes).size;
const undelivered = outbox.filter((r) => r.delivered_at === null).length;

const health = await fetch(`${bffUrl}/api/health`).then((r) => r.status);
const end = { service: servicePeak.stop(), bff: bffPeak.stop() };
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

console.log(`
uploads answered 201: ${counts.uploads}; other answers or failures: ${counts.uploadErrors}; statuses (0: no answer) ${JSON.stringify(Object.fromEntries(statuses))}
small requests: ${counts.small}; 5xx or failed (health excluded): ${counts.smallErrors}
media files ${files.length}, records ${records.size}: files without a record ${filesWithoutRecord.length}, records without a file ${recordsWithoutFile.length}
webhook events written by the service ${outbox.length}, undelivered ${undelivered}; received by the BFF ${receivedHashes.length}: missing ${missing}, more than once ${twice}
health after the run: ${health}
RSS service: idle ${mb(idle.service)}, peak before the kill ${mb(servicePeakKb)}, peak after the restart ${mb(end.service)}, now ${mb(rssKb(service.pid!))}
RSS BFF: idle ${mb(idle.bff)}, peak ${mb(end.bff)}, now ${mb(rssKb(bff.pid!))}`);

// With nothing stored or sent, the checks above would pass on nothing.
const ok =
  records.size > 0 &&
  outbox.length > 0 &&
  filesWithoutRecord.length === 0 &&
  recordsWithoutFile.length === 0 &&
  missing === 0 &&
  twice === 0 &&
  health === 200;
console.log(ok ? 'soak: all checks passed' : 'soak: CHECKS FAILED');
await Promise.all([stopNode(service), stopNode(bff)]);
rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
