// Two BFF processes on one PostgreSQL database (a schema of its own in TEST_DATABASE_URL) and the
// embedded service: what one instance sees, the other sees too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createdVerificationSchema,
  staffStreamEventSchema,
  storedEventSchema,
  verificationStatusSchema,
  type StaffStreamEvent,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import { freePort } from '../../e2e/fixtures/free-port';
import {
  BffProcess,
  Browser,
  eventually,
  passportForm,
  readEvents,
  secrets,
  ServiceProcess,
} from './testing/harness';
import { dropSchema, freshSchemaUrl } from '../../e2e/fixtures/test-database';

const { url: databaseUrl, schema } = freshSchemaUrl('idv_multi');
const dataDir = mkdtempSync(path.join(tmpdir(), 'idv-multi-test-'));
let service: ServiceProcess;
let a: BffProcess;
let b: BffProcess;

beforeAll(async () => {
  const ports = new Set<number>();
  while (ports.size < 3) ports.add(await freePort());
  const [servicePort, portA, portB] = [...ports];
  const shared = {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'multi-instance-test-session-secret-0123',
    UPSTREAM_URL: `http://127.0.0.1:${servicePort}`,
    SSE_HEARTBEAT_MS: '300',
  };
  a = new BffProcess(portA, { ...shared, DATA_DIR: path.join(dataDir, 'a') });
  b = new BffProcess(portB, { ...shared, DATA_DIR: path.join(dataDir, 'b') });
  // Both start at once on an empty schema: one migrates, the other waits for it.
  await Promise.all([a.start(), b.start()]);
  service = new ServiceProcess(servicePort, path.join(dataDir, 'service'), {
    // The service knows instance A only: every verification webhook arrives there.
    SERVICE_WEBHOOK_URL: `${a.url}/webhooks/verification`,
  });
  await service.start();
  // Three processes to start, on a machine that may be busy.
}, 180_000);

afterAll(async () => {
  await Promise.all([service?.stop(), a?.stop(), b?.stop()]);
  await dropSchema(schema);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Collects a console's stream until `stop()` is called (heartbeats wake the reader). */
function collect(res: Response) {
  const events: StaffStreamEvent[] = [];
  let stopped = false;
  const done = readEvents(
    res,
    (entry) => {
      if (entry.event !== 'comment') events.push(staffStreamEventSchema.parse(JSON.parse(entry.data)));
      return stopped;
    },
    120_000,
  );
  return {
    events,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

const ofVerification = (events: StaffStreamEvent[], id: string) =>
  events.flatMap((e) => (e.kind === 'verification' && e.verification.id === id ? [e.verification] : []));

describe('two BFF instances on one PostgreSQL database', () => {
  it('shares staff sign-ins: logged in on A is logged in on B, logged out on B is out on A', async () => {
    const onA = new Browser(a.url);
    expect((await onA.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
    const onB = new Browser(b.url);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    expect((await onB.fetch(bffPaths.staffMe)).status).toBe(200);
    expect((await onB.fetch(bffPaths.staffVerifications)).status).toBe(200);
    expect((await onB.post(bffPaths.staffLogout, {})).status).toBe(204);
    expect((await onA.fetch(bffPaths.staffMe)).status).toBe(401);
  });

  it('completes through B a verification created through A; webhooks at A; both consoles see every event live', async () => {
    // Staff signed in on A, watching on both instances.
    const staffA = new Browser(a.url);
    expect((await staffA.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
    const staffB = new Browser(b.url);
    for (const [name, value] of staffA.cookies) staffB.cookies.set(name, value);
    const streamA = collect(await staffA.fetch(bffPaths.staffEvents));
    const streamB = collect(await staffB.fetch(bffPaths.staffEvents));

    // The browser creates the verification through A, and sends its inputs through B.
    const captureA = new Browser(a.url);
    const created = createdVerificationSchema.parse(
      await (await captureA.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
    );
    const captureB = new Browser(b.url);
    for (const [name, value] of captureA.cookies) captureB.cookies.set(name, value);
    const sent = await captureB.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: await passportForm(),
    });
    expect(sent.status).toBe(201);
    expect(sendInputResponseSchema.parse(await sent.json()).map((r) => r.result)).toEqual([true, true, true]);
    // Another browser's session is refused by B as by A.
    const stranger = await new Browser(b.url).fetch(bffPaths.status(created.verificationId));
    expect(stranger.status).toBe(403);

    const finished = await eventually(
      async () => {
        const s = verificationStatusSchema.parse(
          await (await captureB.fetch(bffPaths.status(created.verificationId))).json(),
        );
        return s.status === 'pending' || s.status === 'running' ? undefined : s;
      },
      60_000,
      'a finished verification',
    );

    // The webhooks (sent to A only) are stored once, processed, and seen by B's staff API.
    const detail = await eventually(
      async () => {
        const res = await staffB.fetch(bffPaths.staffVerification(created.verificationId));
        const body = (await res.json()) as {
          events: unknown[];
          summary: { status: string; lastEvent: string };
        };
        const events = body.events.map((e) => storedEventSchema.parse(e));
        return events.some((e) => e.eventName === 'verification_completed') ? { ...body, events } : undefined;
      },
      30_000,
      'the completion webhook',
    );
    expect(detail.summary.status).toBe(finished.status);
    const webhookCount = detail.events.length;
    expect(webhookCount).toBeGreaterThan(2);

    // Every event published by any instance reaches both consoles, in the same order: one for the
    // creation (on A), at least one per webhook (processed on A), ending with the final status.
    await eventually(
      async () => {
        const seenB = ofVerification(streamB.events, created.verificationId);
        return seenB.length >= 1 + webhookCount && seenB.some((s) => s.status === finished.status)
          ? true
          : undefined;
      },
      30_000,
      'every event on B',
    );
    await eventually(
      async () =>
        ofVerification(streamA.events, created.verificationId).length ===
        ofVerification(streamB.events, created.verificationId).length
          ? true
          : undefined,
      10_000,
      'the same events on A',
    );
    await Promise.all([streamA.stop(), streamB.stop()]);
    const seenA = ofVerification(streamA.events, created.verificationId);
    const seenB = ofVerification(streamB.events, created.verificationId);
    expect(seenB).toEqual(seenA);
    expect(seenB[0]).toMatchObject({ status: 'pending', identity: created.identity });
  });
  it('limits staff sign-in guesses across both instances together', async () => {
    // Every request here comes from 127.0.0.1: five wrong tries in all, spread over A and B.
    const tries = [];
    for (let i = 0; i < 6; i++) {
      const browser = new Browser(i % 2 ? b.url : a.url);
      tries.push((await browser.post(bffPaths.staffLogin, { password: 'wrong-password' })).status);
    }
    expect(tries).toEqual([401, 401, 401, 401, 401, 429]);
    // A right password after the limit still waits for the minute; on either instance.
    const right = await new Browser(b.url).post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD });
    expect(right.status).toBe(429);
  });
});
