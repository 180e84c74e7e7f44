import type { BffStore } from '../store/store';

/**
 * Staff login attempts per client address and minute. A successful login clears the count, so
 * that only guessing is slowed down, never a colleague who types the password right. The counts
 * are in the store: with several instances, a guesser gets the same few tries in all of them
 * together, not a few per instance.
 */
export class LoginLimiter {
  constructor(
    private readonly store: Pick<BffStore, 'countLoginAttempt' | 'clearLoginAttempts'>,
    private readonly maxPerMinute: number,
  ) {}

  /** Counts an attempt; false when the address is over its limit. */
  async attempt(key: string): Promise<boolean> {
    return (await this.store.countLoginAttempt(key, 60_000)) <= this.maxPerMinute;
  }

  async succeeded(key: string) {
    await this.store.clearLoginAttempts(key);
  }
}
