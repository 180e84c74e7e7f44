import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createVerification, startService, waitFor } from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';

const DAY = 24 * 60 * 60 * 1000;

describe('retention (RETENTION_DAYS, RETENTION_EXPIRED_DAYS)', () => {
  it('erases old verifications, expired ones sooner, and old credit checks and events, at start', async () => {
    const dataDir = tempDataDir();
    const first = await startService({}, dataDir);
    const old = await createVerification(first, 'global-passport');
    const expired = await createVerification(first, 'global-passport');
    const fresh = await createVerification(first, 'global-passport');
    await first.close();
    const db = new Database(path.join(dataDir, 'service.sqlite'));
    const now = Date.now();
    db.prepare('UPDATE verifications SET updated_at = ? WHERE id = ?').run(now - 91 * DAY, old.id);
    db.prepare('UPDATE verifications SET updated_at = ?, expired = 1 WHERE id = ?').run(
      now - 8 * DAY,
      expired.id,
    );
    db.prepare(
      "INSERT INTO credit_checks (id, country, request, status, result, created_at) VALUES ('c-old', 'br', '{}', 'completed', '{}', ?)",
    ).run(now - 91 * DAY);
    db.prepare(
      "INSERT INTO outbox (url, event_name, body, next_at, delivered_at, created_at) VALUES ('http://x', 'e', '{}', 0, ?, ?)",
    ).run(now - 91 * DAY, now - 91 * DAY);
    db.close();

    const second = await startService({}, dataDir);
    try {
      const status = (id: string) =>
        fetch(`${second.url}/v2/verifications/${id}`, { headers: second.auth }).then((r) => r.status);
      await waitFor(async () => (await status(old.id)) === 404);
      expect(await status(expired.id)).toBe(404);
      expect(await status(fresh.id)).toBe(200);
      const check = new Database(path.join(dataDir, 'service.sqlite'), { readonly: true });
      expect(check.prepare("SELECT count(*) AS n FROM credit_checks WHERE id = 'c-old'").get()).toEqual({
        n: 0,
      });
      expect(check.prepare("SELECT count(*) AS n FROM outbox WHERE url = 'http://x'").get()).toEqual({
        n: 0,
      });
      check.close();
    } finally {
      await second.close();
    }
  });
});
