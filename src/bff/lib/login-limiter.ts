/**
 * Staff login attempts per client address and minute. A successful login clears the count, so
 * that only guessing is slowed down, never a colleague who types the password right.
 */
export class LoginLimiter {
  private readonly attempts = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts an attempt; false when the address is over its limit. */
  attempt(key: string): boolean {
    const at = this.now();
    if (this.attempts.size > 10_000) {
      for (const [k, v] of this.attempts) if (v.resetAt <= at) this.attempts.delete(k);
    }
    const entry = this.attempts.get(key);
    if (!entry || entry.resetAt <= at) {
      this.attempts.set(key, { count: 1, resetAt: at + 60_000 });
      return true;
    }
    entry.count++;
    return entry.count <= this.maxPerMinute;
  }

  succeeded(key: string) {
    this.attempts.delete(key);
  }
}
