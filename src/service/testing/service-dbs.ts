import { openPostgres, openSqlite, type ServiceDb } from '../storage/db';
import { tempDataDir } from './temp-dirs';

/**
 * Both dialects of the service's database, for a `describe.each`: SQLite in a fresh data dir, or
 * PostgreSQL on `databaseUrl` (a test schema), migrated.
 */
export const serviceDbs = (databaseUrl: string) => [
  { name: 'SQLite', open: async (): Promise<ServiceDb> => openSqlite(tempDataDir()) },
  {
    name: 'PostgreSQL',
    open: async (): Promise<ServiceDb> => {
      const db = openPostgres(databaseUrl);
      await db.ready();
      return db;
    },
  },
];
