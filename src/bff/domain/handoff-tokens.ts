import { createHash, randomBytes } from 'node:crypto';
import type { BffStore, HandoffGrant } from '../store/store';

/** Only a token's hash is stored: a copy of the database opens no verification. */
export const handoffTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Desktop-to-phone handoff tokens: random, short-lived, single-use, each bound to one
 * verification. Kept in the BFF's store, so that a restart keeps them and every instance on
 * one database honours them; single use is the store's conditional update.
 */
export class HandoffTokens {
  constructor(
    private readonly store: BffStore,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(v: Omit<HandoffGrant, 'expiresAt' | 'claimedAt'>): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(24).toString('base64url');
    const expiresAt = new Date(this.now() + this.ttlMs);
    await this.store.createHandoff(handoffTokenHash(token), { ...v, expiresAt });
    return { token, expiresAt };
  }

  /** The grant of a token that is still valid, marked used; null for an unknown, used or expired one. */
  claim(token: string): Promise<HandoffGrant | null> {
    return this.store.claimHandoff(handoffTokenHash(token), new Date(this.now()));
  }

  latest(verificationId: string): Promise<HandoffGrant | null> {
    return this.store.latestHandoff(verificationId);
  }
}
