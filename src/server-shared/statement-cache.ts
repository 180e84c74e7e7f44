import type Database from 'better-sqlite3';

/**
 * A function from SQL text to its prepared statement, each prepared once on `db`: preparing costs
 * more than running a small query.
 */
export function statementCache(db: Database.Database): (source: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (source) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = db.prepare(source);
      statements.set(source, statement);
    }
    return statement;
  };
}
