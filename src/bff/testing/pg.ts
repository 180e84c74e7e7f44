// Test support: a schema of its own per test run on TEST_DATABASE_URL, so that parallel runs on one
// PostgreSQL server never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const testDatabaseBase = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A connection string whose search_path is a new schema (the stores create it when they migrate). */
export function freshSchemaUrl(prefix = 'idv_test') {
  const schema = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = new URL(testDatabaseBase);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), schema };
}

export async function dropSchema(schema: string) {
  const client = new pg.Client({ connectionString: testDatabaseBase });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}
