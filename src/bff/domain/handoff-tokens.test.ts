import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqlStore } from '../store/sql-store';
import { HandoffTokens, handoffTokenHash } from './handoff-tokens';

const verification = { verificationId: 'v1', identity: 'i1', flowId: 'f', flowName: 'F', carry: null };
const dir = mkdtempSync(path.join(tmpdir(), 'idv-handoff-test-'));
const file = path.join(dir, 'bff.sqlite');
const store = SqlStore.sqlite(file);

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('handoff tokens', () => {
  it('are single-use, bound to their verification, stored by their hash only', async () => {
    const tokens = new HandoffTokens(store, 60_000);
    const { token } = await tokens.issue(verification);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await store.latestHandoff('v1')).not.toBeNull();
    expect(await store.claimHandoff(token, new Date())).toBeNull();
    expect(await tokens.claim(token)).toMatchObject({ verificationId: 'v1', identity: 'i1' });
    expect(await tokens.claim(token)).toBeNull();
    expect((await tokens.latest('v1'))?.claimedAt).not.toBeNull();
    expect(await tokens.claim('unknown')).toBeNull();
    expect(handoffTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('expire', async () => {
    let now = Date.now();
    const tokens = new HandoffTokens(store, 10_000, () => now);
    const { token } = await tokens.issue({ ...verification, verificationId: 'v2' });
    now += 10_000;
    expect(await tokens.claim(token)).toBeNull();
  });

  it('outlive a restart of the BFF', async () => {
    const tokens = new HandoffTokens(store, 60_000);
    const { token } = await tokens.issue({ ...verification, verificationId: 'v3' });
    const reopened = SqlStore.sqlite(file);
    try {
      expect(await new HandoffTokens(reopened, 60_000).claim(token)).toMatchObject({ verificationId: 'v3' });
    } finally {
      await reopened.close();
    }
  });
});
