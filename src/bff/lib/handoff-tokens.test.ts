import { describe, expect, it } from 'vitest';
import { HandoffTokens } from './handoff-tokens';

const verification = { verificationId: 'v1', identity: 'i1', flowId: 'f', flowName: 'F' };

describe('handoff tokens', () => {
  it('are single-use and bound to their verification', () => {
    const tokens = new HandoffTokens(60_000);
    const { token } = tokens.issue(verification);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(tokens.claim(token)).toMatchObject({ verificationId: 'v1', identity: 'i1' });
    expect(tokens.claim(token)).toBeNull();
    expect(tokens.latest('v1')?.claimedAt).not.toBeNull();
    expect(tokens.claim('unknown')).toBeNull();
  });

  it('expire', () => {
    let now = 1_000;
    const tokens = new HandoffTokens(10_000, () => now);
    const { token } = tokens.issue(verification);
    now += 10_000;
    expect(tokens.claim(token)).toBeNull();
  });
});
