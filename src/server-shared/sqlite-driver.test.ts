import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CompiledQuery, Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteConnectionDriver, directExecutor, sqliteConnectionDialect } from './sqlite-driver';

interface Tables {
  items: { name: string };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open() {
  const dir = mkdtempSync(path.join(tmpdir(), 'idv-sqlite-driver-'));
  dirs.push(dir);
  const raw = new Database(path.join(dir, 'x.sqlite'));
  raw.exec('CREATE TABLE items (name TEXT NOT NULL)');
  const driver = new SqliteConnectionDriver(raw, () => raw.close());
  return {
    db: new Kysely<Tables>({ dialect: sqliteConnectionDialect(driver) }),
    direct: directExecutor(driver),
  };
}

describe('SqliteConnectionDriver', () => {
  it('keeps queries from outside an open transaction out of it: they run after it ends', async () => {
    const { db, direct } = open();
    let insideDone!: () => void;
    const inside = new Promise<void>((resolve) => (insideDone = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'rolled back' }).execute();
        insideDone();
        await gate;
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await inside;
    // Issued while the transaction is open, through Kysely and past it: run inside it, they would
    // see its row and be rolled back with it.
    const kept = db.insertInto('items').values({ name: 'kept' }).execute();
    const counted = direct.executeQuery<{ n: number }>(
      CompiledQuery.raw("SELECT count(*) AS n FROM items WHERE name = 'rolled back'"),
    );
    release();
    expect(await rolledBack).toBe('roll back');
    await kept;
    expect((await counted).rows).toEqual([{ n: 0 }]);
    expect(await db.selectFrom('items').select('name').execute()).toEqual([{ name: 'kept' }]);
    await db.destroy();
  });

  it('runs transactions one after the other and commits them', async () => {
    const { db } = open();
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('items').values({ name }).execute();
          await trx
            .insertInto('items')
            .values({ name: `${name}2` })
            .execute();
        }),
      ),
    );
    const names = (await db.selectFrom('items').select('name').execute()).map((r) => r.name);
    expect(names).toEqual(['a', 'a2', 'b', 'b2', 'c', 'c2']);
    await db.destroy();
  });
});
