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
  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const run = async () => {
        const lock = await lockPool.connect();
        let broken = false;
        try {
          await lock.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
          try {
            return await fn();
          } finally {
            await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => {
              // A connection that cannot unlock must not go back to the pool still holding the lock.
              broken = true;
            });
          }
        } finally {
          lock.release(broken);
        }
      };
      return queue.run(key, run);
    },
    close: () => lockPool.end(),
  };
}
