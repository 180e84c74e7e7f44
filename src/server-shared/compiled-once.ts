import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';

/** What runs a compiled query: any Kysely (the method does not depend on its tables), or a driver's shortcut. */
export interface CompiledExecutor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

const marker = (i: number) => `\u0000compiled-once-value-${i}\u0000`;

/**
 * A Kysely query built and compiled once, then run with new values: on the hot path building and
 * compiling costs more than running a small query on SQLite (whose statement is prepared once too,
 * see `statement-cache.ts`). `build` gets one stand-in per value and must put each in the query as a
 * plain value (not inside a function of it); the values must be given as the database takes them
 * (a boolean as 0/1 on SQLite, say), since nothing converts them.
 */
export function compiledOnce<Row, Values extends unknown[]>(
  db: CompiledExecutor,
  count: Values['length'],
  build: (...standIns: never[]) => Compilable<Row>,
) {
  const run = compiledTemplate<Row, Values>(count, build);
  return (...values: Values) => run(db, ...values);
}

/**
 * `compiledOnce` run on the executor given at each call: the same statement outside and inside a
 * transaction (whose queries must go through its connection).
 */
export function compiledTemplate<Row, Values extends unknown[]>(
  count: Values['length'],
  build: (...standIns: never[]) => Compilable<Row>,
) {
  let template: { sql: string; parameters: readonly unknown[]; positions: number[] } | null = null;
  return async (db: CompiledExecutor, ...values: Values): Promise<Row[]> => {
    if (!template) {
      const standIns = Array.from({ length: count }, (_, i) => marker(i));
      const compiled = build(...(standIns as never[])).compile();
      const positions = compiled.parameters.map((p) => standIns.indexOf(p as string));
      if (new Set(positions.filter((p) => p >= 0)).size !== count)
        throw new Error('compiledOnce: every value must appear in the query as a plain value');
      template = { sql: compiled.sql, parameters: compiled.parameters, positions };
    }
    const { sql, parameters, positions } = template;
    const bound = parameters.map((p, i) => (positions[i] >= 0 ? values[positions[i]] : p));
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, bound))).rows;
  };
}
