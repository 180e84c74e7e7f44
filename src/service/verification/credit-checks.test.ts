// Credit checks as durable jobs: one left pending by a process that died is completed by the
// next start (SQLite) or by another instance (PostgreSQL), and a job run again sends no second
// callback.
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { creditCheckAcceptedSchema, creditCheckResultEventSchema } from '@/shared/contract/credit-check';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { startReceiver, startService, waitFor, type RunningService } from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';

const secret = 'credit-jobs-secret';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function receiver() {
  const r = await startReceiver(secret);
  cleanups.push(r.close);
  return r;
}

const post = (svc: RunningService, body: unknown) =>
  fetch(`${svc.url}/creditchecks/v1/br/credit-bureau`, {
    method: 'POST',
    headers: { ...svc.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A credit check as the route stores it, still pending: its process died before its job ran. */
const leftPending = (id: string, callbackUrl: string) => ({
  id,
  country: 'br',
  request: JSON.stringify({ cpf: '529.982.247-25', callbackUrl }),
  status: 'pending',
  result: null,
  created_at: Date.now(),
});

describe('credit checks as durable jobs', () => {
  it('SQLite: a check left pending is completed at the next start; its job run again sends nothing', async () => {
    const hooks = await receiver();
    const dataDir = tempDataDir();
    const env = { SERVICE_WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: secret };
    let svc = await startService(env, dataDir);
    const accepted = await post(svc, { cpf: '529.982.247-25', callbackUrl: hooks.url });
    expect(accepted.status).toBe(202);
    const { id } = creditCheckAcceptedSchema.parse(await accepted.json());
    await waitFor(async () => hooks.received.some((r) => r.json.id === id));
    await svc.close();

    const db = new Database(path.join(dataDir, 'service.sqlite'));
    const row = leftPending('0123456789abcdef01234567', hooks.url);
    db.prepare(
      'INSERT INTO credit_checks (id, country, request, status, result, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(row.id, row.country, row.request, row.status, row.result, row.created_at);
    // The first check's job, again, as if its first run had not been recorded.
    db.prepare(
      "INSERT INTO jobs (name, key, run_at, payload, version) VALUES ('credit-check', ?, 0, ?, 'replayed')",
    ).run(id, JSON.stringify({ id }));
    db.close();

    svc = await startService(env, dataDir);
    try {
      const hook = await waitFor(async () => hooks.received.find((r) => r.json.id === row.id));
      expect(hook.validSignature).toBe(true);
      expect(creditCheckResultEventSchema.parse(hook.json)).toMatchObject({
        country: 'br',
        request: { cpf: '529.982.247-25' },
        result: { synthetic: true },
      });
      // Deliveries to one URL go in order: a fresh check's callback comes after anything the
      // replayed job could have written.
      const fence = creditCheckAcceptedSchema.parse(
        await (await post(svc, { cpf: '111.444.777-35', callbackUrl: hooks.url })).json(),
      );
      await waitFor(async () => hooks.received.some((r) => r.json.id === fence.id));
      // One callback written per check (a delivery cut short by the stop is sent again, the same row).
      const file = new Database(path.join(dataDir, 'service.sqlite'), { readonly: true });
      try {
        const count = file.prepare('SELECT count(*) AS n FROM outbox WHERE body LIKE ?');
        for (const check of [id, row.id]) expect((count.get(`%"id":"${check}"%`) as { n: number }).n).toBe(1);
      } finally {
        file.close();
      }
    } finally {
      await svc.close();
    }
  });

  it('PostgreSQL: a check left pending by a dead instance is completed by another, once', async () => {
    const hooks = await receiver();
    const database = freshSchemaUrl('idv_credit_jobs');
    cleanups.push(() => dropSchema(database.schema));
    const env = { SERVICE_WEBHOOK_URL: hooks.url, WEBHOOK_SECRET: secret, DATABASE_URL: database.url };
    const a = await startService(env);
    const accepted = creditCheckAcceptedSchema.parse(
      await (await post(a, { cpf: '529.982.247-25', callbackUrl: hooks.url })).json(),
    );
    await waitFor(async () => hooks.received.some((r) => r.json.id === accepted.id));
    await a.close();

    const row = leftPending('89abcdef0123456789abcdef', hooks.url);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(
        'INSERT INTO service_credit_checks (id, country, request, status, result, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [row.id, row.country, row.request, row.status, row.result, row.created_at],
      );
    } finally {
      await client.end();
    }
    // Two instances start: the one check is completed by one of them.
    const [b, c] = await Promise.all([startService(env), startService(env)]);
    try {
      await waitFor(async () => hooks.received.some((r) => r.json.id === row.id));
      const fence = creditCheckAcceptedSchema.parse(
        await (await post(c, { cpf: '111.444.777-35', callbackUrl: hooks.url })).json(),
      );
      await waitFor(async () => hooks.received.some((r) => r.json.id === fence.id));
      // One callback written per check (a delivery cut short by a stop is sent again, the same row).
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        for (const check of [accepted.id, row.id]) {
          const { rows } = await db.query('SELECT 1 FROM service_outbox WHERE body LIKE $1', [
            `%"id":"${check}"%`,
          ]);
          expect(rows).toHaveLength(1);
        }
      } finally {
        await db.end();
      }
    } finally {
      await Promise.all([b.close(), c.close()]);
    }
  });
});
