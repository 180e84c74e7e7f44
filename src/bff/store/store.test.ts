// One suite, two dialects: every case runs against SqlStore on SQLite and on PostgreSQL (on a schema of its
// own in TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreditCheckRecord } from '@/shared/contract/bff-api';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { SqlStore } from './sql-store';
import type { BffStore, NewEvent } from './store';

interface Backend {
  name: string;
  /** A fresh, empty store. */
  open(): Promise<BffStore>;
  cleanup(): Promise<void>;
}

const sqlite = (): Backend => {
  const dir = mkdtempSync(path.join(tmpdir(), 'idv-store-test-'));
  let n = 0;
  return {
    name: 'SQLite',
    open: async () => SqlStore.sqlite(path.join(dir, `bff-${++n}.sqlite`)),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

const postgres = (): Backend => {
  const schemas: string[] = [];
  return {
    name: 'PostgreSQL',
    open: async () => {
      const { url, schema } = freshSchemaUrl('idv_store');
      schemas.push(schema);
      return SqlStore.postgres(url);
    },
    cleanup: async () => {
      for (const schema of schemas) await dropSchema(schema);
    },
  };
};

let hashes = 0;
const event = (over: Partial<NewEvent> = {}): NewEvent => {
  const body = JSON.stringify({ eventName: 'step_completed', n: ++hashes, ...over });
  return {
    kind: 'verification',
    eventName: 'step_completed',
    rawBody: body,
    bodyHash: `hash-${hashes}-${Math.random()}`,
    verificationId: 'v1',
    creditCheckId: null,
    ...over,
  };
};

const pendingCheck = (id: string, createdAt = new Date().toISOString()): CreditCheckRecord => ({
  id,
  country: 'br',
  request: { cpf: '52998224725' },
  status: 'pending',
  result: null,
  error: null,
  createdAt,
  completedAt: null,
});

describe.each([
  { name: 'SQLite', makeBackend: sqlite },
  { name: 'PostgreSQL', makeBackend: postgres },
])('BffStore on $name', ({ makeBackend }) => {
  const backend = makeBackend();
  const opened: BffStore[] = [];
  let store: BffStore;

  beforeEach(async () => {
    store = await backend.open();
    opened.push(store);
  });

  afterAll(async () => {
    for (const s of opened) await s.close();
    await backend.cleanup();
  });

  it(`${backend.name}: binds verifications to sessions`, async () => {
    const summary = await store.bindVerification('s1', {
      verificationId: 'v1',
      identity: 'i1',
      flowId: 'global-passport',
      flowName: 'Passport',
    });
    expect(summary).toMatchObject({
      id: 'v1',
      identity: 'i1',
      flowId: 'global-passport',
      flowName: 'Passport',
      status: 'pending',
      lastEvent: null,
    });
    expect(new Date(summary.createdAt).toISOString()).toBe(summary.createdAt);
    // Binding again changes nothing.
    await store.bindVerification('s1', { verificationId: 'v1', identity: 'i1', flowId: 'x', flowName: null });
    expect((await store.getVerification('v1'))?.summary.flowName).toBe('Passport');

    expect(await store.sessionOwnsIdentity('s1', 'i1')).toBe(true);
    expect(await store.sessionOwnsVerification('s1', 'v1')).toBe(true);
    expect(await store.sessionOwnsIdentity('s2', 'i1')).toBe(false);
    expect(await store.sessionOwnsVerification('s2', 'v1')).toBe(false);
    expect(await store.sessionOwnsVerification('s1', 'v2')).toBe(false);
  });

  it(`${backend.name}: deletes what is older than the retention cutoff, and nothing newer`, async () => {
    await store.bindVerification('s-old', {
      verificationId: 'v-old',
      identity: 'i-old',
      flowId: 'f',
      flowName: null,
    });
    // Nothing is older than a cutoff in the past.
    expect(await store.deleteOlderThan(new Date(Date.now() - 60_000))).toBe(0);
    expect(await store.getVerification('v-old')).not.toBeNull();
    // Everything so far is older than a cutoff a minute ahead.
    expect(await store.deleteOlderThan(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(2);
    expect(await store.getVerification('v-old')).toBeNull();
    expect(await store.sessionOwnsVerification('s-old', 'v-old')).toBe(false);
  });

  it(`${backend.name}: keeps staff sessions until they expire or are deleted`, async () => {
    const until = new Date(Date.now() + 60_000);
    await store.createStaffSession('a', until);
    await store.createStaffSession('old', new Date(Date.now() - 1000));
    expect((await store.staffSessionExpiry('a'))?.getTime()).toBe(until.getTime());
    expect(await store.staffSessionExpiry('old')).toBeNull();
    expect(await store.staffSessionExpiry('unknown')).toBeNull();
    await store.deleteStaffSession('a');
    expect(await store.staffSessionExpiry('a')).toBeNull();
  });

  it(`${backend.name}: counts login attempts per key and window`, async () => {
    expect(await store.countLoginAttempt('1.2.3.4', 60_000)).toBe(1);
    expect(await store.countLoginAttempt('1.2.3.4', 60_000)).toBe(2);
    expect(await store.countLoginAttempt('5.6.7.8', 60_000)).toBe(1);
    await store.clearLoginAttempts('1.2.3.4');
    expect(await store.countLoginAttempt('1.2.3.4', 60_000)).toBe(1);
    // A window that is over starts again at one.
    expect(await store.countLoginAttempt('9.9.9.9', 0)).toBe(1);
    expect(await store.countLoginAttempt('9.9.9.9', 0)).toBe(1);
  });

  it(`${backend.name}: stores an event once per body hash and tracks its processing`, async () => {
    const first = event();
    const stored = await store.recordEvent(first);
    expect(stored.duplicate).toBe(false);
    expect(stored.event).toMatchObject({
      kind: 'verification',
      eventName: 'step_completed',
      signatureValid: true,
      body: JSON.parse(first.rawBody),
    });
    const again = await store.recordEvent({ ...first });
    expect(again).toEqual({ event: stored.event, duplicate: true });

    const second = await store.recordEvent(
      event({ kind: 'credit-check', verificationId: null, creditCheckId: 'c1' }),
    );
    const pending = await store.unprocessedEvents();
    expect(pending.map((p) => p.event.id)).toEqual([stored.event.id, second.event.id]);
    expect(pending[1]).toMatchObject({ verificationId: null, creditCheckId: 'c1' });

    await store.markEventProcessed(stored.event.id);
    expect((await store.unprocessedEvents()).map((p) => p.event.id)).toEqual([second.event.id]);
  });

  it(`${backend.name}: lists a verification's events in the order received`, async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await store.recordEvent(event({ verificationId: 'v9' }))).event.id);
    await store.recordEvent(event({ verificationId: 'other' }));
    expect((await store.eventsOf('v9')).map((e) => e.id)).toEqual(ids);
    expect(await store.eventsOf('none')).toEqual([]);
  });

  it(`${backend.name}: a raw body that is not JSON comes back as text`, async () => {
    const stored = await store.recordEvent(event({ rawBody: 'not json' }));
    expect(stored.event.body).toBe('not json');
  });

  it(`${backend.name}: notes verifications seen in events`, async () => {
    const at = '2026-01-02T03:04:05.678Z';
    const noted = await store.noteVerificationEvent('v2', {
      flowId: 'f',
      eventName: 'verification_started',
      at,
    });
    expect(noted.created).toBe(true);
    expect(noted.summary).toMatchObject({
      id: 'v2',
      identity: null,
      flowId: 'f',
      status: 'pending',
      createdAt: at,
      updatedAt: at,
      lastEvent: 'verification_started',
    });
    const later = '2026-01-02T03:04:06.000Z';
    const again = await store.noteVerificationEvent('v2', {
      flowId: 'f',
      eventName: 'step_completed',
      at: later,
    });
    expect(again.created).toBe(false);
    expect(again.summary).toMatchObject({ createdAt: at, updatedAt: later, lastEvent: 'step_completed' });
  });

  it(`${backend.name}: saves verification data, telling new rows and status moves`, async () => {
    const data = {
      id: 'v3',
      identity: { id: 'i3', status: 'running' },
      steps: [{ id: 'a', status: 200 }],
      n: 1.5,
    };
    const update = { data, status: 'running' as const, identity: 'i3', flowId: 'f', flowName: 'Flow' };
    const created = await store.saveVerificationData('v3', update);
    expect(created).toMatchObject({ changed: true, created: true });
    expect(created.summary).toMatchObject({ id: 'v3', identity: 'i3', status: 'running', flowName: 'Flow' });

    const same = await store.saveVerificationData('v3', update);
    expect(same).toMatchObject({ changed: false, created: false });

    const moreData = { ...data, steps: [...data.steps, { id: 'b', status: 200 }] };
    const sameStatus = await store.saveVerificationData('v3', { ...update, data: moreData, identity: null });
    expect(sameStatus).toMatchObject({ changed: false, created: false });
    expect(sameStatus.summary.identity).toBe('i3');
    expect((await store.getVerification('v3'))?.data).toEqual(moreData);

    const verified = await store.saveVerificationData('v3', {
      ...update,
      data: moreData,
      status: 'verified',
    });
    expect(verified).toMatchObject({ changed: true, created: false });
    expect(verified.summary.status).toBe('verified');
    expect(await store.getVerification('missing')).toBeNull();
  });

  it(`${backend.name}: keeps the identity and name of a bound verification when data arrives`, async () => {
    await store.bindVerification('s', {
      verificationId: 'v4',
      identity: 'i4',
      flowId: 'f',
      flowName: 'Named',
    });
    const saved = await store.saveVerificationData('v4', {
      data: [1, 2, 3],
      status: 'pending',
      identity: null,
      flowId: 'f',
      flowName: null,
    });
    expect(saved.summary).toMatchObject({ identity: 'i4', flowName: 'Named' });
    expect((await store.getVerification('v4'))?.data).toEqual([1, 2, 3]);
  });

  it(`${backend.name}: lists verifications newest first, filtered by status and flow`, async () => {
    const times = ['2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z', '2026-01-02T00:00:00.000Z'];
    for (const [i, at] of times.entries())
      await store.noteVerificationEvent(`l${i}`, { flowId: i === 2 ? 'g' : 'f', eventName: 'e', at });
    await store.saveVerificationData('l1', {
      data: {},
      status: 'verified',
      identity: null,
      flowId: 'f',
      flowName: null,
    });
    expect((await store.listVerifications({})).map((v) => v.id)).toEqual(['l1', 'l2', 'l0']);
    expect((await store.listVerifications({ status: 'pending' })).map((v) => v.id)).toEqual(['l2', 'l0']);
    expect((await store.listVerifications({ flowId: 'f' })).map((v) => v.id)).toEqual(['l1', 'l0']);
    expect((await store.listVerifications({ status: 'verified', flowId: 'g' })).map((v) => v.id)).toEqual([]);
  });

  it(`${backend.name}: erases a verification with its events, bindings and media links`, async () => {
    await store.bindVerification('s', {
      verificationId: 'gone',
      identity: 'ig',
      flowId: 'f',
      flowName: null,
    });
    await store.bindVerification('s', {
      verificationId: 'kept',
      identity: 'ik',
      flowId: 'f',
      flowName: null,
    });
    await store.recordEvent(event({ verificationId: 'gone' }));
    const keptEvent = await store.recordEvent(event({ verificationId: 'kept' }));
    await store.rememberMedia([
      { id: 'mg', url: 'http://s/media/mg' },
      { id: 'mk', url: 'http://s/media/mk' },
    ]);
    await store.deleteVerification('gone', ['mg']);
    expect(await store.getVerification('gone')).toBeNull();
    expect(await store.eventsOf('gone')).toEqual([]);
    expect(await store.sessionOwnsVerification('s', 'gone')).toBe(false);
    expect(await store.sessionOwnsIdentity('s', 'ig')).toBe(false);
    expect(await store.mediaUrl('mg')).toBeNull();
    expect((await store.listVerifications({})).map((v) => v.id)).toEqual(['kept']);
    expect((await store.eventsOf('kept')).map((e) => e.id)).toEqual([keptEvent.event.id]);
    expect(await store.mediaUrl('mk')).toBe('http://s/media/mk');
    await store.deleteVerification('never-there', []);
  });

  it(`${backend.name}: keeps the latest send-input answer per slot of an identity's newest verification`, async () => {
    await store.bindVerification('s', {
      verificationId: 'older',
      identity: 'i',
      flowId: 'f',
      flowName: null,
    });
    // A later creation time: the re-verification the service now sends the identity's inputs to.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.bindVerification('s', {
      verificationId: 'newer',
      identity: 'i',
      flowId: 'f',
      flowName: null,
    });
    const first = new Date('2026-01-01T00:00:00Z');
    const later = new Date('2026-01-01T00:01:00Z');
    await store.recordInputResults(
      'i',
      [
        { slot: 'document:0:front', accepted: false, code: 'documentPhoto.blurryText' },
        { slot: 'biometric', accepted: false, code: 'selfiePhoto.sunGlasses' },
      ],
      first,
    );
    await store.recordInputResults('i', [{ slot: 'document:0:front', accepted: true, code: null }], later);
    await store.recordInputResults(
      'unknown-identity',
      [{ slot: 'biometric', accepted: true, code: null }],
      later,
    );
    expect(await store.inputResultsOf('older')).toEqual([]);
    expect(await store.inputResultsOf('newer')).toEqual([
      { slot: 'biometric', accepted: false, code: 'selfiePhoto.sunGlasses', at: first.toISOString() },
      { slot: 'document:0:front', accepted: true, code: null, at: later.toISOString() },
    ]);
    await store.deleteVerification('newer', []);
    expect(await store.inputResultsOf('newer')).toEqual([]);
  });

  it(`${backend.name}: handoff grants are single-use, short-lived, followed, swept and erased`, async () => {
    const grant = {
      verificationId: 'vh',
      identity: 'ih',
      flowId: 'f',
      flowName: 'Flow',
      expiresAt: new Date(Date.now() + 60_000),
      carry: '{"consentedAt":"2026-11-26T10:00:00.000Z","documents":[]}',
    };
    await store.createHandoff('hash-1', grant);
    expect(await store.latestHandoff('vh')).toMatchObject({ verificationId: 'vh', claimedAt: null });
    // Several claims at once (as from two phones, or two instances): exactly one wins.
    const claims = await Promise.all([1, 2, 3, 4].map(() => store.claimHandoff('hash-1', new Date())));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({
      verificationId: 'vh',
      identity: 'ih',
      flowId: 'f',
      flowName: 'Flow',
      carry: grant.carry,
    });
    expect(won[0]!.expiresAt.getTime()).toBe(grant.expiresAt.getTime());
    expect(await store.claimHandoff('hash-1', new Date())).toBeNull();
    expect((await store.latestHandoff('vh'))?.claimedAt).toBeInstanceOf(Date);
    expect(await store.claimHandoff('unknown', new Date())).toBeNull();

    // Expired: refused, and still followed for a day; older ones are swept by the next issue.
    await store.createHandoff('hash-2', {
      ...grant,
      verificationId: 'vx',
      expiresAt: new Date(Date.now() - 1),
    });
    expect(await store.claimHandoff('hash-2', new Date())).toBeNull();
    expect(await store.claimHandoff('hash-1', new Date(Date.now() - 120_000))).toBeNull();
    await store.createHandoff('hash-3', {
      ...grant,
      verificationId: 'vold',
      expiresAt: new Date(Date.now() - 25 * 3600_000),
    });
    await store.createHandoff('hash-4', { ...grant, verificationId: 'vnew' });
    expect(await store.latestHandoff('vold')).toBeNull();
    expect(await store.latestHandoff('vx')).not.toBeNull();
    // The newest grant of a verification is the one followed.
    await store.createHandoff('hash-5', { ...grant, verificationId: 'vnew', flowName: 'Second' });
    expect((await store.latestHandoff('vnew'))?.flowName).toBe('Second');
    // One live link per verification: the older, unused one no longer opens it.
    expect(await store.claimHandoff('hash-4', new Date())).toBeNull();
    // A claimed one stays (the desktop follows it), and a new link after it is live.
    await store.createHandoff('hash-6', grant);
    expect(await store.claimHandoff('hash-6', new Date())).toMatchObject({ verificationId: 'vh' });

    // Erasure and retention take them too.
    await store.deleteVerification('vnew', []);
    expect(await store.latestHandoff('vnew')).toBeNull();
    expect(await store.claimHandoff('hash-5', new Date())).toBeNull();
    await store.deleteOlderThan(new Date());
    expect(await store.latestHandoff('vx')).toBeNull();
    expect(await store.latestHandoff('vh')).not.toBeNull();
  });

  it(`${backend.name}: keeps reviewers' decisions newest first, erased and swept with their verification`, async () => {
    const data = (id: string) =>
      store.saveVerificationData(id, {
        data: { id },
        status: 'reviewNeeded',
        identity: `i-${id}`,
        flowId: 'f',
        flowName: null,
      });
    await data('va');
    await data('vb');
    const at = '2026-03-01T10:00:00.000Z';
    const review = (id: string, verificationId: string, decidedAt = at) => ({
      id,
      verificationId,
      decision: 'rejected' as const,
      reason: 'faceMismatch',
      note: id === 'r1' ? 'the chin differs — «ñ»' : null,
      reviewer: 'staff-0a1b2c3d',
      decidedAt,
    });
    await store.recordReview(review('r1', 'va'));
    // Same instant: the later one still comes first.
    await store.recordReview(review('r2', 'va'));
    await store.recordReview(review('r3', 'va', '2026-03-01T11:00:00.000Z'));
    await store.recordReview(review('r4', 'vb'));
    expect((await store.reviewsOf('va')).map((r) => r.id)).toEqual(['r3', 'r2', 'r1']);
    expect((await store.reviewsOf('va'))[2]).toEqual(review('r1', 'va'));
    expect(await store.reviewsOf('unknown')).toEqual([]);

    await store.deleteReview('r2');
    expect((await store.reviewsOf('va')).map((r) => r.id)).toEqual(['r3', 'r1']);

    // Erasure takes its history; the other verification keeps its own.
    await store.deleteVerification('va', []);
    expect(await store.reviewsOf('va')).toEqual([]);
    expect((await store.reviewsOf('vb')).map((r) => r.id)).toEqual(['r4']);
    // Retention: nothing newer than the cutoff goes, then the whole of it does.
    await store.deleteOlderThan(new Date(Date.now() - 60_000));
    expect(await store.reviewsOf('vb')).toHaveLength(1);
    await store.deleteOlderThan(new Date(Date.now() + 60_000));
    expect(await store.reviewsOf('vb')).toEqual([]);
  });

  it(`${backend.name}: keeps an erased verification's id (nothing else) until the retention sweep`, async () => {
    await store.noteVerificationEvent('vt', { flowId: 'f', eventName: 'x', at: new Date().toISOString() });
    expect(await store.wasErased('vt')).toBe(false);
    await store.deleteVerification('vt', []);
    // Erasing twice (a replay processed after the erasure) is harmless.
    await store.deleteVerification('vt', []);
    expect(await store.wasErased('vt')).toBe(true);
    expect(await store.getVerification('vt')).toBeNull();
    await store.deleteOlderThan(new Date(Date.now() - 60_000));
    expect(await store.wasErased('vt')).toBe(true);
    await store.deleteOlderThan(new Date(Date.now() + 60_000));
    expect(await store.wasErased('vt')).toBe(false);
  });

  it(`${backend.name}: creates and completes credit checks, in either order`, async () => {
    const createdAt = '2026-02-01T10:00:00.000Z';
    expect(await store.createCreditCheck(pendingCheck('c1', createdAt))).toEqual(
      pendingCheck('c1', createdAt),
    );
    const completedAt = '2026-02-01T10:00:01.000Z';
    const done = await store.completeCreditCheck('c1', {
      country: 'br',
      request: { cpf: 'ignored' },
      status: 'completed',
      result: { score: 700, lines: [{ bank: 'x' }] },
      error: null,
      completedAt,
    });
    expect(done).toEqual({
      ...pendingCheck('c1', createdAt),
      status: 'completed',
      result: { score: 700, lines: [{ bank: 'x' }] },
      completedAt,
    });

    // The result may arrive before the service's answer: it keeps its status and gains the request.
    await store.completeCreditCheck('c2', {
      country: 'ar',
      request: {},
      status: 'failed',
      result: null,
      error: 'bureau down',
      completedAt,
    });
    const late = await store.createCreditCheck({
      ...pendingCheck('c2', createdAt),
      country: 'ar',
      request: { cuit: '1' },
    });
    expect(late).toMatchObject({ status: 'failed', error: 'bureau down', request: { cuit: '1' }, createdAt });

    await store.createCreditCheck(pendingCheck('c3', '2026-02-02T00:00:00.000Z'));
    expect((await store.listCreditChecks()).map((c) => c.id)).toEqual(['c3', 'c1', 'c2']);
  });

  it(`${backend.name}: remembers media links, the last one winning`, async () => {
    await store.rememberMedia([]);
    await store.rememberMedia([
      { id: 'm1', url: 'http://s/media/m1?a' },
      { id: 'm2', url: 'http://s/media/m2' },
      { id: 'm1', url: 'http://s/media/m1?b' },
    ]);
    expect(await store.mediaUrl('m1')).toBe('http://s/media/m1?b');
    await store.rememberMedia([{ id: 'm2', url: 'http://s/media/m2?new' }]);
    expect(await store.mediaUrl('m2')).toBe('http://s/media/m2?new');
    expect(await store.mediaUrl('m3')).toBeNull();
  });

  it(`${backend.name}: runs exclusive work of one key one at a time, other keys alongside`, async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = store.exclusive('k', async () => {
      log.push('first start');
      entered();
      await gate;
      log.push('first end');
      return 1;
    });
    await inside;
    const second = store.exclusive('k', async () => {
      log.push('second');
      return 2;
    });
    const other = await store.exclusive('other', async () => {
      log.push('other');
      return 3;
    });
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(other).toBe(3);
    expect(log).toEqual(['first start', 'other', 'first end', 'second']);
    // A failure releases the key.
    await expect(store.exclusive('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await store.exclusive('k', async () => 'after')).toBe('after');
  });
});

describe('SqlStore on PostgreSQL: several instances on one database', () => {
  const { url, schema } = freshSchemaUrl('idv_store_multi');
  const opened: SqlStore[] = [];

  afterAll(async () => {
    for (const s of opened) await s.close();
    await dropSchema(schema);
  });

  it('migrates once when instances start at the same time, and they share everything', async () => {
    const [a, b, c] = await Promise.all([
      SqlStore.postgres(url),
      SqlStore.postgres(url),
      SqlStore.postgres(url),
    ]);
    opened.push(a, b, c);
    await a.bindVerification('s', { verificationId: 'v', identity: 'i', flowId: 'f', flowName: null });
    expect(await b.sessionOwnsIdentity('s', 'i')).toBe(true);
    await b.createStaffSession('staff', new Date(Date.now() + 60_000));
    expect(await c.staffSessionExpiry('staff')).not.toBeNull();
    expect(await a.countLoginAttempt('ip', 60_000)).toBe(1);
    expect(await c.countLoginAttempt('ip', 60_000)).toBe(2);
    // Opening again later finds nothing to migrate.
    const d = await SqlStore.postgres(url);
    opened.push(d);
    expect((await d.listVerifications({})).map((v) => v.id)).toEqual(['v']);
  });

  it('honours a handoff token once, whichever instance the phones reach', async () => {
    const [a, b, c] = opened;
    await a.createHandoff('shared-hash', {
      verificationId: 'vm',
      identity: 'im',
      flowId: 'f',
      carry: null,
      flowName: null,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const claims = await Promise.all([b, c, b, c].map((s) => s.claimHandoff('shared-hash', new Date())));
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
    expect((await a.latestHandoff('vm'))?.claimedAt).toBeInstanceOf(Date);
  });

  it('keeps exclusive work of one key apart across instances', async () => {
    const [a, b] = opened;
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = a.exclusive('shared', async () => {
      log.push('a start');
      entered();
      await gate;
      log.push('a end');
    });
    await inside;
    const second = b.exclusive('shared', async () => {
      log.push('b');
    });
    // b's lock waits on the database; an unrelated key does not.
    await b.exclusive('unrelated', async () => {
      log.push('b unrelated');
    });
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['a start', 'b unrelated', 'a end', 'b']);
  });
});
