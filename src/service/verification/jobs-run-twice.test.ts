import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  completeGlobalPassport,
  createVerification,
  startReceiver,
  startService,
  waitFor,
} from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';

// Jobs run at least once: a run again after the work was done (a process that died before it
// could say so, a lease that lapsed) must change nothing and send no event twice.
const secret = 'test-webhook-secret';
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

/** Puts the jobs back in the stopped service's file, as if their first runs had not been recorded. */
function replayJobs(dataDir: string, jobs: { name: string; id: string }[]) {
  const db = new Database(path.join(dataDir, 'service.sqlite'));
  const insert = db.prepare(
    "INSERT INTO jobs (name, key, run_at, payload, version) VALUES (?, ?, 0, ?, 'replayed')",
  );
  for (const job of jobs) insert.run(job.name, job.id, JSON.stringify({ id: job.id }));
  db.close();
}

function jobsLeft(dataDir: string) {
  const db = new Database(path.join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM jobs WHERE version = 'replayed'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A stopped service's verification whose expiry has come (its job runs at the next start). */
function expireNow(dataDir: string, id: string) {
  const db = new Database(path.join(dataDir, 'service.sqlite'));
  db.prepare('UPDATE verifications SET expires_at = 0 WHERE id = ?').run(id);
  db.prepare("UPDATE jobs SET run_at = 0 WHERE name = 'expire' AND key = ?").run(id);
  db.close();
}

describe('jobs run twice', () => {
  it('a verification processed, one expired: running their jobs again sends nothing more', async () => {
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    const dataDir = tempDataDir();
    const env = { SERVICE_WEBHOOK_URL: receiver.url, WEBHOOK_SECRET: secret };
    let svc = await startService(env, dataDir);
    const done = await createVerification(svc, 'global-passport');
    const expired = await createVerification(svc, 'global-passport');
    expect((await completeGlobalPassport(svc, done.identity, 'AR')).status).toBe(201);
    const events = () => receiver.received.map((r) => `${r.json.eventName}:${String(r.json.resource)}`);
    const seen = (event: string, id: string) =>
      events().includes(`${event}:${svc.url}/v2/verifications/${id}`);
    await waitFor(async () => seen('verification_completed', done.id));
    await svc.close();
    expireNow(dataDir, expired.id);
    svc = await startService(env, dataDir);
    await waitFor(async () => seen('verification_expired', expired.id));
    await svc.close();
    const before = events();

    replayJobs(dataDir, [
      { name: 'process', id: done.id },
      { name: 'expire', id: done.id },
      { name: 'upload-wait', id: done.id },
      { name: 'expire', id: expired.id },
      { name: 'process', id: expired.id },
    ]);
    svc = await startService(env, dataDir);
    try {
      await waitFor(async () => jobsLeft(dataDir) === 0);
      // Deliveries to one URL go in order: once a credit check's callback to the same URL came,
      // anything the jobs had queued would have come before it.
      const check = await fetch(`${svc.url}/creditchecks/v1/br/credit-bureau`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ cpf: '529.982.247-25', callbackUrl: receiver.url }),
      });
      expect(check.status).toBe(202);
      await waitFor(async () => events().some((e) => e.startsWith('credit_check_completed')));
      expect(events().filter((e) => !e.startsWith('credit_check_completed'))).toEqual(before);
    } finally {
      await svc.close();
    }
  });
});
