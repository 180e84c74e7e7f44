import pg from 'pg';

/** PostgreSQL's type id of BIGINT (int8). */
const INT8 = 20;

/**
 * A pool on DATABASE_URL. `bigintAsNumber`: BIGINT columns come back as numbers, for tables whose
 * BIGINTs are epoch milliseconds and serial ids (far below 2^53), so that rows read alike from
 * SQLite and PostgreSQL; the parser is the pool's own, not pg's global one.
 */
export function openPgPool(connectionString: string, options: { max: number; bigintAsNumber?: boolean }) {
  const pool = new pg.Pool({
    connectionString,
    max: options.max,
    ...(options.bigintAsNumber
      ? {
          types: {
            getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
              oid === INT8 && format !== 'binary'
                ? (value: string) => Number(value)
                : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
          },
        }
      : {}),
  });
  // An idle client whose server went away emits 'error'; the pool replaces it on the next query.
  pool.on('error', () => undefined);
  return pool;
}
