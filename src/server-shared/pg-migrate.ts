import pg from 'pg';

/** PostgreSQL's answers when another session created the same schema a moment earlier. */
const ALREADY_THERE = new Set(['23505', '42P06']);

/**
 * The schema the connection's search_path names first (`options=-c search_path=name` in the URL),
 * whether it exists yet or not; null for `public` or `$user`.
 */
export async function searchPathSchema(client: Pick<pg.ClientBase, 'query'>) {
  const { rows } = await client.query<{ path: string }>("SELECT current_setting('search_path') AS path");
  const first = rows[0].path.split(',')[0].trim().replace(/^"|"$/g, '');
  return first && first !== '$user' && first !== 'public' ? first : null;
}

/**
 * Runs the migrations not yet applied (`migrations[i]` is version i + 1 in `table`), under an
 * advisory lock: processes that start together take turns, and the later ones find nothing left
 * to do. A schema named by the connection's search_path (`options=-c search_path=name` in the
 * URL) is created if it does not exist.
 */
export async function migrate(
  client: pg.PoolClient | pg.Client,
  migrations: readonly string[],
  table: string,
  lockKey: string,
) {
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [lockKey]);
  try {
    const first = await searchPathSchema(client);
    if (first) {
      // The BFF and the service migrate under locks of their own, so both may create the schema
      // at once: IF NOT EXISTS is not safe against that race, the loser's error is.
      await client
        .query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(first)}`)
        .catch((error: { code?: string }) => {
          if (!ALREADY_THERE.has(error.code ?? '')) throw error;
        });
    }
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const applied = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${table}`,
    );
    for (let v = applied.rows[0].version ?? 0; v < migrations.length; v++) {
      await client.query('BEGIN');
      try {
        await client.query(migrations[v]);
        await client.query(`INSERT INTO ${table} (version) VALUES ($1)`, [v + 1]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lockKey]);
  }
}
