import { KeyQueue } from './key-queue';
import { openPgPool } from './pg-pool';

/**
 * A lock per key across every instance on one PostgreSQL database: a session advisory lock,
 * held for the whole of `fn` on a connection of its own, so that code running under a lock can
 * always get a connection of the main pool (sharing one pool, enough waiting locks would starve
 * it). Within an instance one waiter per key goes to the database, the others queue here. A
 * process that dies loses its connection, and so its locks.
 */
export function advisoryLocks(connectionString: string, options: { connections: number }) {
  const lockPool = openPgPool(connectionString, { max: options.connections });
  const queue = new KeyQueue();

  /** fn under the lock, waited for (`wait`) or only if free now; null: it was not free. */
  async function locked<T>(key: string, wait: boolean, fn: () => Promise<T>): Promise<{ value: T } | null> {
    const lock = await lockPool.connect();
    let broken = false;
    try {
      if (wait) await lock.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
      else {
        const { rows } = await lock.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
          [key],
        );
        if (!rows[0].ok) return null;
      }
      try {
        return { value: await fn() };
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {
          // A connection that cannot unlock must not go back to the pool still holding the lock.
          broken = true;
        });
      }
    } finally {
      lock.release(broken);
    }
  }

  return {
    run: <T>(key: string, fn: () => Promise<T>): Promise<T> =>
      queue.run(key, async () => (await locked(key, true, fn))!.value),
    /** fn if no one holds the lock now (true), else nothing (false): no connection waits for it. */
    tryRun: async (key: string, fn: () => Promise<void>) => (await locked(key, false, fn)) !== null,
    close: () => lockPool.end(),
  };
}
