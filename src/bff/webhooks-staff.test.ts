import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bffErrorSchema,
  creditCheckRecordSchema,
  staffVerificationDetailSchema,
  staffStreamEventSchema,
  storedEventSchema,
  verificationSummarySchema,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, eventually, readEvents, secrets, sign, startStack, type Stack } from './testing/harness';

let stack: Stack;
let staff: Browser;
beforeAll(async () => {
  stack = await startStack();
  staff = new Browser(stack.bffUrl);
  expect((await staff.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

const event = (verificationId: string, eventName = 'verification_started') =>
  JSON.stringify({
    eventName,
    resource: `${stack.service.url}/v2/verifications/${verificationId}`,
    flowId: 'global-passport',
    timestamp: new Date().toISOString(),
    metadata: {},
  });

const postWebhook = (body: string, headers: Record<string, string>) =>
  fetch(`${stack.bffUrl}/webhooks/verification`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

async function staffEvents(verificationId: string) {
  const res = await staff.fetch(bffPaths.staffVerification(verificationId));
  if (res.status !== 200) return null;
  const body = (await res.json()) as { events: unknown[] };
  return body.events.map((e) => storedEventSchema.parse(e));
}

describe('webhooks', () => {
  it('refuses a forged or unsigned webhook and stores nothing', async () => {
    const body = event('forged0000000000000000001');
    const forged = await postWebhook(body, { 'x-signature': sign(body, 'not-the-secret') });
    expect(forged.status).toBe(401);
    expect(bffErrorSchema.parse(await forged.json())).toMatchObject({
      code: 'webhook.badSignature',
      type: 'AuthError',
    });
    expect((await postWebhook(body, {})).status).toBe(401);
    // A signature of other bytes (the same JSON, spaced differently) does not count.
    expect(
      (await postWebhook(body, { 'x-signature': sign(JSON.stringify(JSON.parse(body), null, 1)) })).status,
    ).toBe(401);
    expect((await postWebhook(body, { 'x-signature': 'zz' })).status).toBe(401);
    const list = verificationSummarySchema
      .array()
      .parse(await (await staff.fetch(bffPaths.staffVerifications)).json());
    expect(list.find((v) => v.id === 'forged0000000000000000001')).toBeUndefined();
    expect(await staffEvents('forged0000000000000000001')).toBeNull();
  });

  it('stores a redelivered webhook once', async () => {
    // A real verification, so that the BFF can fetch what the event points to.
    const browser = new Browser(stack.bffUrl);
    const created = (await (
      await browser.post(bffPaths.verifications, { flowId: 'global-passport' })
    ).json()) as {
      verificationId: string;
    };
    const body = event(created.verificationId, 'verification_updated');
    const headers = { 'x-signature': sign(body) };
    const first = await postWebhook(body, headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    const again = await postWebhook(body, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    const events = await eventually(async () => {
      const list = await staffEvents(created.verificationId);
      return list?.length ? list : undefined;
    });
    expect(events.filter((e) => e.eventName === 'verification_updated')).toHaveLength(1);
    const summary = await eventually(async () => {
      const list = verificationSummarySchema
        .array()
        .parse(await (await staff.fetch(bffPaths.staffVerifications)).json());
      return list.find((v) => v.id === created.verificationId && v.lastEvent === 'verification_updated');
    });
    expect(summary.flowId).toBe('global-passport');

    // The console shows when the retention sweep deletes it: RETENTION_DAYS (90) after the last change.
    const detail = staffVerificationDetailSchema.parse(
      await (await staff.fetch(bffPaths.staffVerification(created.verificationId))).json(),
    );
    expect(Date.parse(detail.deletionDate!) - Date.parse(detail.summary.updatedAt)).toBe(
      90 * 24 * 3600 * 1000,
    );
  });

  it('keeps but never fetches a resource outside the service origin', async () => {
    const body = JSON.stringify({
      eventName: 'verification_started',
      resource: 'http://169.254.169.254/v2/verifications/elsewhere00000000000001',
      flowId: 'global-passport',
      timestamp: new Date().toISOString(),
      metadata: {},
    });
    expect((await postWebhook(body, { 'x-signature': sign(body) })).status).toBe(200);
    const list = await eventually(async () => {
      const all = verificationSummarySchema
        .array()
        .parse(await (await staff.fetch(bffPaths.staffVerifications)).json());
      return all.find((v) => v.id === 'elsewhere00000000000001');
    });
    expect(list.status).toBe('pending');
  });
});

describe('staff API', () => {
  it('refuses anonymous calls with a 401 envelope', async () => {
    const anonymous = new Browser(stack.bffUrl);
    for (const path of [
      bffPaths.staffMe,
      bffPaths.staffVerifications,
      bffPaths.staffVerification('abc'),
      bffPaths.staffMedia('abc'),
      bffPaths.staffCreditChecks,
      bffPaths.staffEvents,
    ]) {
      const res = await anonymous.fetch(path);
      expect(res.status, path).toBe(401);
      expect(bffErrorSchema.parse(await res.json()).type).toBe('AuthError');
    }
    const post = await anonymous.post(bffPaths.staffCreditCheck('br'), { cpf: '529.982.247-25' });
    expect(post.status).toBe(401);
    // A capture session is no staff session.
    await anonymous.post(bffPaths.verifications, { flowId: 'global-passport' });
    expect((await anonymous.fetch(bffPaths.staffVerifications)).status).toBe(401);
  });

  it('logs in with a strict cookie, out again, and limits guessing', async () => {
    const browser = new Browser(stack.bffUrl);
    const wrong = await browser.post(bffPaths.staffLogin, { password: 'guess' });
    expect(wrong.status).toBe(401);
    const ok = await browser.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD });
    expect(ok.status).toBe(200);
    const cookie = ok.headers.getSetCookie().find((c) => c.startsWith('idv_staff='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Max-Age=28800/i);
    expect((await browser.fetch(bffPaths.staffMe)).status).toBe(200);
    expect((await browser.fetch(bffPaths.staffLogout, { method: 'POST' })).status).toBe(204);
    expect((await browser.fetch(bffPaths.staffMe)).status).toBe(401);

    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await browser.post(bffPaths.staffLogin, { password: `guess-${i}` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // Even the right password waits out the minute.
    expect((await browser.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(429);
  });

  it('runs a credit check whose result arrives through the webhook, live on the event stream', async () => {
    const stream = await staff.fetch(bffPaths.staffEvents, { headers: { accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const invalid = await staff.post(bffPaths.staffCreditCheck('br'), { cpf: '111.111.111-12' });
    expect(invalid.status).toBe(400);
    expect(bffErrorSchema.parse(await invalid.json()).type).toBe('ValidationError');

    const res = await staff.post(bffPaths.staffCreditCheck('br'), { cpf: '529.982.247-25' });
    expect(res.status).toBe(201);
    const created = creditCheckRecordSchema.parse(await res.json());
    expect(created).toMatchObject({ country: 'br', status: 'pending', request: { cpf: '529.982.247-25' } });

    const seen = await readEvents(stream, ({ event, data }) => {
      if (event !== 'credit-check') return false;
      const parsed = staffStreamEventSchema.parse(JSON.parse(data));
      return (
        parsed.kind === 'credit-check' &&
        parsed.creditCheck.id === created.id &&
        parsed.creditCheck.status !== 'pending'
      );
    });
    const last = staffStreamEventSchema.parse(JSON.parse(seen.at(-1)!.data));
    expect(last.kind === 'credit-check' && last.creditCheck.status).toBe('completed');

    const list = creditCheckRecordSchema
      .array()
      .parse(await (await staff.fetch(bffPaths.staffCreditChecks)).json());
    const done = list.find((c) => c.id === created.id)!;
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ synthetic: true });
    expect(done.completedAt).not.toBeNull();

    const ar = await staff.post(bffPaths.staffCreditCheck('ar'), {
      dni: '30.123.456',
      fullName: 'Ana Pérez',
    });
    expect(ar.status).toBe(201);
    const arRecord = creditCheckRecordSchema.parse(await ar.json());
    await eventually(async () => {
      const all = creditCheckRecordSchema
        .array()
        .parse(await (await staff.fetch(bffPaths.staffCreditChecks)).json());
      return all.find((c) => c.id === arRecord.id && c.status === 'completed');
    });
  });

  it('streams heartbeats and new verifications', async () => {
    const stream = await staff.fetch(bffPaths.staffEvents);
    const browser = new Browser(stack.bffUrl);
    const created = (await (
      await browser.post(bffPaths.verifications, { flowId: 'global-passport' })
    ).json()) as {
      verificationId: string;
    };
    const seen = await readEvents(stream, ({ event, data }) => {
      if (event !== 'verification') return false;
      const parsed = staffStreamEventSchema.parse(JSON.parse(data));
      return parsed.kind === 'verification' && parsed.verification.id === created.verificationId;
    });
    expect(seen.at(-1)!.event).toBe('verification');
    const more = await readEvents(
      await staff.fetch(bffPaths.staffEvents),
      ({ data }) => data.includes('heartbeat'),
      5_000,
    );
    expect(more.some((e) => e.data.includes(': heartbeat'))).toBe(true);
  });
});
