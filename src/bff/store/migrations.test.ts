// The BFF's store on the numbered migrations (issue 38, item 2): a new file runs them all, a file made
// by the releases before them (an unversioned "add when missing" script) keeps its data and counts
// as migrated, and a PostgreSQL database part-way through its versions carries on; send-input's answers kept
// under the BFF's old slot keys move to the one vocabulary (item 5).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '@/server-shared/pg-migrate';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { migrations } from './dialects';
import { SqlStore } from './sql-store';

/**
 * The SQLite script of the releases before the numbered migrations, as the earliest of them ran it
 * at every open (no handoff carry, reviews or erased ids yet). Written out here, not imported, so
 * that the test keeps what old files really hold.
 */
const oldScript = `
CREATE TABLE IF NOT EXISTS session_verifications (
  session_id TEXT NOT NULL,
  verification_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, verification_id)
);
CREATE INDEX IF NOT EXISTS session_identity ON session_verifications (session_id, identity);
CREATE TABLE IF NOT EXISTS verifications (
  id TEXT PRIMARY KEY,
  identity TEXT,
  flow_id TEXT NOT NULL,
  flow_name TEXT,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_event TEXT,
  data TEXT
);
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  event_name TEXT NOT NULL,
  body_hash TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  verification_id TEXT,
  credit_check_id TEXT,
  received_at TEXT NOT NULL,
  processed_at TEXT
);
CREATE INDEX IF NOT EXISTS events_verification ON events (verification_id, received_at);
CREATE TABLE IF NOT EXISTS credit_checks (
  id TEXT PRIMARY KEY,
  country TEXT NOT NULL,
  request TEXT NOT NULL,
  status TEXT NOT NULL,
  result TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE TABLE IF NOT EXISTS staff_sessions (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS media (id TEXT PRIMARY KEY, url TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS login_attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL, reset_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS handoff_tokens (
  token_hash TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  identity TEXT NOT NULL,
  flow_id TEXT NOT NULL,
  flow_name TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS handoff_tokens_verification ON handoff_tokens (verification_id, created_at);
CREATE TABLE IF NOT EXISTS input_results (
  verification_id TEXT NOT NULL,
  slot TEXT NOT NULL,
  accepted INTEGER NOT NULL,
  code TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (verification_id, slot)
);
CREATE INDEX IF NOT EXISTS verifications_identity ON verifications (identity, created_at);
`;

/** What the last unversioned release added to that script (carry was added when missing). */
const lastOldAdditions = `
ALTER TABLE handoff_tokens ADD COLUMN carry TEXT;
CREATE TABLE IF NOT EXISTS reviews (
  id TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  decision TEXT NOT NULL,
  reason TEXT NOT NULL,
  note TEXT,
  reviewer TEXT NOT NULL,
  decided_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_verification ON reviews (verification_id, decided_at);
CREATE TABLE IF NOT EXISTS erased_verifications (id TEXT PRIMARY KEY, erased_at TEXT NOT NULL);
`;

const dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-migrations-'));
let files = 0;
const newFile = () => path.join(dir, `bff-${++files}.sqlite`);

/**
 * send-input's answers as the releases before the one slot vocabulary kept them: the BFF's own
 * keys (`document-photo:0:front`), a custom document's front then its multi-page PDF, a selfie.
 */
const oldResults: [string, boolean, string | null, number][] = [
  ['document-photo:0:front', true, null, 1],
  ['custom-document-photo:1:front', false, 'customDocument.unreadable', 2],
  ['custom-document-photo:1:multi', true, null, 3],
  ['selfie-photo', false, 'selfiePhoto.closedEyes', 4],
  ['financial-information-bank-statement-parsing-request', true, null, 5],
  ['custom-fields', true, null, 6],
];
const second = (n: number) => `2026-01-01T00:00:0${n}.000Z`;

/** The same answers under the one vocabulary (`slotKeyOf`): the later of two that meet is kept. */
const rekeyed = [
  { slot: 'document:0:front', accepted: true, code: null, at: second(1) },
  { slot: 'document:1:front', accepted: true, code: null, at: second(3) },
  { slot: 'biometric', accepted: false, code: 'selfiePhoto.closedEyes', at: second(4) },
  { slot: 'bank-statement', accepted: true, code: null, at: second(5) },
  { slot: 'custom-fields', accepted: true, code: null, at: second(6) },
];

/** A file as an unversioned release left it, with a session's verification in it. */
function oldFile(last: boolean) {
  const file = newFile();
  const raw = new Database(file);
  raw.exec(oldScript);
  if (last) raw.exec(lastOldAdditions);
  raw
    .prepare(
      'INSERT INTO verifications (id, identity, flow_id, flow_name, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run('v-old', 'i-old', 'f', null, 'pending', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
  raw
    .prepare(
      'INSERT INTO session_verifications (session_id, verification_id, identity, created_at) VALUES (?, ?, ?, ?)',
    )
    .run('s-old', 'v-old', 'i-old', '2026-01-01T00:00:00.000Z');
  const result = raw.prepare(
    'INSERT INTO input_results (verification_id, slot, accepted, code, at) VALUES (?, ?, ?, ?, ?)',
  );
  for (const [slot, accepted, code, n] of oldResults)
    result.run('v-old', slot, accepted ? 1 : 0, code, second(n));
  raw.close();
  return file;
}

/** Each table's columns and indexes, to compare a migrated file with a new one. */
function shape(file: string) {
  const raw = new Database(file, { readonly: true });
  try {
    const tables = raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[];
    return tables.map(({ name }) => ({
      name,
      columns: (raw.pragma(`table_info(${name})`) as { name: string; type: string; notnull: number }[]).map(
        (c) => `${c.name} ${c.type} ${c.notnull}`,
      ),
      indexes: (raw.pragma(`index_list(${name})`) as { name: string }[]).map((i) => i.name).sort(),
    }));
  } finally {
    raw.close();
  }
}

const applied = (file: string) => {
  const raw = new Database(file, { readonly: true });
  try {
    return raw.prepare('SELECT version, name FROM bff_migrations ORDER BY version').all();
  } finally {
    raw.close();
  }
};

const everyMigration = migrations.map((m) => ({ version: m.version, name: m.name }));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the BFF store on SQLite: numbered migrations', () => {
  it('runs every migration on a new file, once', async () => {
    const file = newFile();
    await SqlStore.sqlite(file).close();
    await SqlStore.sqlite(file).close();
    expect(applied(file)).toEqual(everyMigration);
  });

  it.each([
    ['the first', false],
    ['the last', true],
  ])('opens a file of %s unversioned release with its data, at the schema of a new file', async (_, last) => {
    const file = oldFile(last);
    const store = SqlStore.sqlite(file);
    expect(await store.sessionOwnsIdentity('s-old', 'i-old')).toBe(true);
    expect(await store.inputResultsOf('v-old')).toEqual(rekeyed);
    // What the migrations after the old script brought works on the old file.
    await store.createHandoff('h', {
      verificationId: 'v-old',
      identity: 'i-old',
      flowId: 'f',
      flowName: null,
      carry: '{"consentAt":1}',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await store.claimHandoff('h', new Date()))?.carry).toBe('{"consentAt":1}');
    await store.close();
    expect(applied(file)).toEqual(everyMigration);
    const fresh = newFile();
    await SqlStore.sqlite(fresh).close();
    expect(shape(file)).toEqual(shape(fresh));
  });
});

describe('the BFF store on PostgreSQL: numbered migrations', () => {
  const { url, schema } = freshSchemaUrl('idv_bff_migrations');
  afterAll(() => dropSchema(schema));

  it('carries on from a database the old runner left at an earlier version', async () => {
    // The old runner (pg-migrate.ts `migrate` over the append-only list) to version 6.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await migrate(
        client,
        migrations.slice(0, 6).map((m) => m.postgres),
        'bff_migrations',
        'idv-bff-migrations',
      );
      await client.query(
        "INSERT INTO session_verifications VALUES ('s-old', 'v-old', 'i-old', '2026-01-01T00:00:00Z')",
      );
      for (const [slot, accepted, code, n] of oldResults)
        await client.query('INSERT INTO input_results VALUES ($1, $2, $3, $4, $5)', [
          'v-old',
          slot,
          accepted,
          code,
          second(n),
        ]);
    } finally {
      await client.end();
    }
    const store = await SqlStore.postgres(url);
    try {
      expect(await store.sessionOwnsIdentity('s-old', 'i-old')).toBe(true);
      expect(await store.inputResultsOf('v-old')).toEqual(rekeyed);
      const { rows } = await store.postgres!.pool.query<{ version: number }>(
        'SELECT version FROM bff_migrations ORDER BY version',
      );
      expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    } finally {
      await store.close();
    }
  });
});
