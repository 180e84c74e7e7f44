import { randomBytes } from 'node:crypto';

export interface HandoffGrant {
  verificationId: string;
  identity: string;
  flowId: string;
  flowName: string | null;
  expiresAt: number;
  claimedAt: number | null;
}

/**
 * Desktop-to-phone handoff tokens: random, short-lived, single-use, each bound to one
 * verification. Kept in memory: a token lives minutes, and a restart only asks for a new QR code.
 */
export class HandoffTokens {
  private readonly grants = new Map<string, HandoffGrant>();
  /** The latest grant per verification, so that the desktop can follow the phone. */
  private readonly byVerification = new Map<string, HandoffGrant>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  issue(v: Omit<HandoffGrant, 'expiresAt' | 'claimedAt'>): { token: string; grant: HandoffGrant } {
    this.sweep();
    const token = randomBytes(24).toString('base64url');
    const grant: HandoffGrant = { ...v, expiresAt: this.now() + this.ttlMs, claimedAt: null };
    this.grants.set(token, grant);
    this.byVerification.set(v.verificationId, grant);
    return { token, grant };
  }

  /** The grant of a token that is still valid, marked used; null for an unknown, used or expired one. */
  claim(token: string): HandoffGrant | null {
    const grant = this.grants.get(token);
    this.grants.delete(token);
    if (!grant || grant.claimedAt !== null || grant.expiresAt <= this.now()) return null;
    grant.claimedAt = this.now();
    return grant;
  }

  latest(verificationId: string): HandoffGrant | null {
    return this.byVerification.get(verificationId) ?? null;
  }

  private sweep() {
    const now = this.now();
    for (const [token, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(token);
    // A verification's latest grant is kept a day after it expired (the desktop may still follow).
    for (const [id, grant] of this.byVerification)
      if (grant.expiresAt + 24 * 3600_000 <= now) this.byVerification.delete(id);
  }
}
