import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdVerificationSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { globalPassportInputs, sendInputForm } from '../../e2e/fixtures/send-input-form';
import { sample } from '../../e2e/fixtures/samples';
import { EventHub } from './domain/event-hub';
import { RetentionSweep } from './domain/retention';
import { VerificationSync } from './domain/verification-sync';
import { SqlStore } from './store/sql-store';
import { UpstreamClient } from './upstream/upstream-client';
import { Browser, eventually, secrets, serviceToken, startStack, type Stack } from './testing/harness';

// Issue 21, item 3: an erasure at the service reaches the BFF's copy, and nothing of the erased
// person is left in either SQLite file (nor their WAL files).
const NAME = 'SPECIMEN';

/** How many times `text` is in the files of `dir` (every SQLite file and its -wal, -shm). */
function occurrences(dir: string, text: string) {
  let count = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.includes('.sqlite')) continue;
    const bytes = readFileSync(path.join(entry.parentPath, entry.name));
    for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + 1)) count++;
  }
  return count;
}

/** A whole global-passport verification through the BFF, until the BFF's copy names the person. */
async function verifiedThroughBff(stack: Stack, staff: Browser) {
  const person = new Browser(stack.bffUrl);
  const created = createdVerificationSchema.parse(
    await (await person.post(bffPaths.verifications, { flowId: 'global-passport' })).json(),
  );
  // A handoff link, so that its row too must go.
  expect(
    (await person.post(bffPaths.handoff(created.verificationId), { consentedAt: new Date().toISOString() }))
      .status,
  ).toBe(201);
  const form = sendInputForm(globalPassportInputs, [
    { field: 'document', name: 'passport.jpg', bytes: readFileSync(sample('gb-passport.jpg').path) },
    {
      field: 'document',
      name: 'residency.jpg',
      bytes: readFileSync(sample('gb-proof-of-residency.jpg').path),
    },
    { field: 'selfie', name: 'selfie.jpg', bytes: readFileSync(sample('selfie.jpg').path) },
  ]);
  expect(
    (await person.fetch(bffPaths.sendInput(created.identity), { method: 'POST', body: form })).status,
  ).toBe(201);
  await eventually(
    async () => {
      const detail = await staff.fetch(bffPaths.staffVerification(created.verificationId));
      const text = await detail.text();
      return text.includes(NAME) && /"status":"(verified|reviewNeeded|rejected)"/.test(text)
        ? true
        : undefined;
    },
    60_000,
    "the BFF's copy of the finished verification",
  );
  return created;
}

async function staffOf(stack: Stack) {
  const staff = new Browser(stack.bffUrl);
  expect((await staff.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
  return staff;
}

/** DELETE at the service, then wait until the staff console no longer lists the verification. */
async function eraseAtServiceAndWait(stack: Stack, staff: Browser, verificationId: string, what: string) {
  const erased = await fetch(`${stack.service.url}/v2/verifications/${verificationId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${await serviceToken(stack.service.url)}` },
  });
  expect(erased.status).toBe(204);
  await eventually(async () => ((await listed(staff, verificationId)) ? undefined : true), 15_000, what);
}

const listed = async (staff: Browser, id: string) =>
  (await (await staff.fetch(bffPaths.staffVerifications)).text()).includes(id);

describe('an erasure at the service, extensions on (verification_deleted)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ serviceEnv: { SERVICE_EXTENSIONS: 'on' } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("erases the BFF's copy, and the name is in neither SQLite file afterwards", async () => {
    const staff = await staffOf(stack);
    const { verificationId } = await verifiedThroughBff(stack, staff);
    expect(occurrences(stack.dataDir, NAME)).toBeGreaterThan(0);
    await eraseAtServiceAndWait(stack, staff, verificationId, 'the erasure');
    expect((await staff.fetch(bffPaths.staffVerification(verificationId))).status).toBe(404);
    const db = new Database(path.join(stack.dataDir, 'bff', 'bff.sqlite'), { readonly: true });
    try {
      for (const table of [
        'verifications',
        'events',
        'input_results',
        'session_verifications',
        'handoff_tokens',
      ]) {
        const column = table === 'verifications' ? 'id' : 'verification_id';
        expect(
          db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).get(verificationId),
        ).toEqual({
          n: 0,
        });
      }
      expect(db.prepare('SELECT COUNT(*) AS n FROM media').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    expect(occurrences(stack.dataDir, NAME)).toBe(0);
  }, 120_000);

  it('the retention sweep erases media links and handoff links with the verifications', async () => {
    const staff = await staffOf(stack);
    const { verificationId } = await verifiedThroughBff(stack, staff);
    // A second connection to the BFF's file, swept as if 100 days had passed.
    const store = SqlStore.inDataDir(stack.config.dataDir);
    const upstream = new UpstreamClient(stack.config);
    const sync = new VerificationSync(store, upstream, new EventHub(null), stack.bff.log);
    try {
      const sweep = new RetentionSweep(store, stack.bff.log, 90, (id) => sync.erase(id));
      expect(await sweep.sweep(Date.now() + 100 * 86_400_000)).toBeGreaterThan(0);
    } finally {
      await upstream.close();
      await store.close();
    }
    const db = new Database(path.join(stack.dataDir, 'bff', 'bff.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM media').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM handoff_tokens').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT COUNT(*) AS n FROM verifications WHERE id = ?').get(verificationId)).toEqual({
        n: 0,
      });
    } finally {
      db.close();
    }
    expect(occurrences(path.join(stack.dataDir, 'bff'), NAME)).toBe(0);
  }, 120_000);
});

describe('an erasure at a service without extensions (reconciliation)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      serviceEnv: { SERVICE_EXTENSIONS: 'off' },
      bffEnv: { RECONCILE_SECONDS: '1' },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('removes the copy of what the service no longer has', async () => {
    const staff = await staffOf(stack);
    const { verificationId } = await verifiedThroughBff(stack, staff);
    await eraseAtServiceAndWait(stack, staff, verificationId, 'the reconciliation');
    expect(occurrences(stack.dataDir, NAME)).toBe(0);
  }, 120_000);
});
