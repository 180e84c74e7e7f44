import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { serviceDbs } from '../testing/service-dbs';
import { tempDataDir } from '../testing/temp-dirs';
import { migrations, openPostgres, openSqlite } from './db';
import { initial } from './migrations/001-initial';
import { VerificationRepo } from './verification-repo';

/** A service.sqlite as a release before the numbered migrations left it, at a PRAGMA user_version. */
function fileOfOlderRelease(dataDir: string, userVersion: 2 | 3) {
  const raw = new Database(path.join(dataDir, 'service.sqlite'));
  raw.exec(initial.sqlite);
  // Version 2 had no liveness challenge yet.
  if (userVersion === 2) raw.exec('ALTER TABLE verifications DROP COLUMN challenge');
  raw
    .prepare(
      "INSERT INTO verifications (id, identity, flow_id, created_at, updated_at) VALUES ('v1', 'i1', 'global-passport', 1, 1)",
    )
    .run();
  raw.pragma(`user_version = ${userVersion}`);
  raw.close();
}

const applied = (dataDir: string) => {
  const raw = new Database(path.join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
  } finally {
    raw.close();
  }
};

describe('the service database on SQLite: numbered migrations', () => {
  it('migrates a new file through every numbered migration, once', async () => {
    const dataDir = tempDataDir();
    await openSqlite(dataDir).close();
    await openSqlite(dataDir).close();
    expect(applied(dataDir)).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
  });

  it.each([2, 3] as const)(
    'opens a file of user_version %i with its data, then migrates it on',
    async (v) => {
      const dataDir = tempDataDir();
      fileOfOlderRelease(dataDir, v);
      const db = openSqlite(dataDir);
      try {
        const repo = new VerificationRepo(db);
        await repo.update('v1', { challenge: '{"steps":[]}' });
        expect(await repo.byIdentity('i1')).toMatchObject({ id: 'v1', challenge: '{"steps":[]}' });
      } finally {
        await db.close();
      }
      expect(applied(dataDir)).toEqual(migrations.map((m) => ({ version: m.version, name: m.name })));
    },
  );
});

const database = freshSchemaUrl('idv_service_db');
afterAll(() => dropSchema(database.schema));

describe('the service database on PostgreSQL', () => {
  it('is migrated once by instances that start together', async () => {
    const [one, two] = [openPostgres(database.url), openPostgres(database.url)];
    try {
      await Promise.all([one.ready(), two.ready()]);
      const { rows } = await sql<{ version: number }>`SELECT version FROM service_schema_migrations`.execute(
        one.db,
      );
      expect(rows.map((r) => Number(r.version))).toEqual(migrations.map((m) => m.version));
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe.each(serviceDbs(database.url))('the verification repository on $name', ({ open }) => {
  it('takes the newest verification of an identity, the later one of two made in the same millisecond', async () => {
    const db = await open();
    try {
      const repo = new VerificationRepo(db);
      const made = {
        identity: `i-${Math.random()}`,
        flow_id: 'global-passport',
        metadata: null,
        expires_at: null,
      };
      const at = { ip: null, ua: null, challenge: null, created_at: 1000 };
      await repo.insert({ id: `${made.identity}-1`, ...made, ...at });
      await repo.insert({ id: `${made.identity}-2`, ...made, ...at });
      expect((await repo.byIdentity(made.identity))?.id).toBe(`${made.identity}-2`);
      await repo.insert({ id: `${made.identity}-0`, ...made, ...at, created_at: 999 });
      expect((await repo.byIdentity(made.identity))?.id).toBe(`${made.identity}-2`);
    } finally {
      await db.close();
    }
  });
});
