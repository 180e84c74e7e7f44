import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, startStack, type Stack } from './testing/harness';

// Issue 34, item 6: a verification whose creation failed in the BFF (after the service created
// it) is not left behind at the service.
const MARKER = 'creation-failure-marker';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** The service's verifications that carry the marker, read in its own SQLite file. */
function atService() {
  const db = new Database(path.join(stack.dataDir, 'service', 'service.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare('SELECT COUNT(*) AS n FROM verifications WHERE metadata LIKE ?')
      .get(`%${MARKER}%`) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

describe('a creation that fails in the BFF', () => {
  it('deletes the verification the service created', async () => {
    const person = new Browser(stack.bffUrl);
    const create = () =>
      person.post(bffPaths.verifications, { flowId: 'global-passport', metadata: { MARKER } });
    expect((await create()).status).toBe(201);
    expect(atService()).toBe(1);
    // The BFF's store breaks after the service's answer: its table of session bindings is gone.
    const bff = new Database(path.join(stack.dataDir, 'bff', 'bff.sqlite'));
    try {
      bff.exec('ALTER TABLE session_verifications RENAME TO session_verifications_away');
      expect((await create()).status).toBe(500);
    } finally {
      bff.exec('ALTER TABLE session_verifications_away RENAME TO session_verifications');
      bff.close();
    }
    // The first one stays; the second, which nobody could continue, is gone.
    expect(atService()).toBe(1);
  }, 60_000);
});
