import { describe, expect, it } from 'vitest';
import { jwtExpiry, TokenCache } from './token-cache';

const jwt = (exp: number) =>
  `e30.${Buffer.from(JSON.stringify({ exp, sub: 'client' })).toString('base64url')}.signature-not-checked-here`;

describe('TokenCache', () => {
  it('fetches once for concurrent callers and reuses the token while it is fresh', async () => {
    let now = 1_000_000;
    let fetches = 0;
    const cache = new TokenCache(
      async () => {
        fetches++;
        return { accessToken: `token-${fetches}`, expiresIn: 3600 };
      },
      () => now,
    );
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([
      'token-1',
      'token-1',
      'token-1',
    ]);
    now += 3_500_000; // 100 s left: more than the one-minute margin
    expect(await cache.get()).toBe('token-1');
    now += 50_000; // 50 s left: renewed ahead of expiry
    expect(await cache.get()).toBe('token-2');
    expect(fetches).toBe(2);
  });

  it('asks for a longer remaining life before a streamed upload', async () => {
    let now = 0;
    let fetches = 0;
    const cache = new TokenCache(
      async () => ({ accessToken: `t${++fetches}`, expiresIn: 3600 }),
      () => now,
    );
    await cache.get();
    now = 3_600_000 - 200_000; // 200 s left
    expect(await cache.get()).toBe('t1');
    expect(await cache.get({ forStream: true })).toBe('t2');
  });

  it("trusts a JWT's own exp when it is sooner than expiresIn says", async () => {
    const now = 10_500; // the service truncated iat to 10 s: exp = 12 s, not 12.5 s
    const cache = new TokenCache(
      async () => ({ accessToken: jwt(12), expiresIn: 2 }),
      () => now,
    );
    expect(jwtExpiry(jwt(12))).toBe(12_000);
    expect(jwtExpiry('not-a-jwt')).toBeNull();
    await cache.get();
    // The cache ends with the JWT (12 s), not with expiresIn counted from now (12.5 s).
    expect((cache as unknown as { token: { expiresAt: number } }).token.expiresAt).toBe(12_000);
  });

  it('forgets a refused token, but not a newer one', async () => {
    let fetches = 0;
    const cache = new TokenCache(async () => ({ accessToken: `t${++fetches}`, expiresIn: 3600 }));
    expect(await cache.get()).toBe('t1');
    cache.invalidate('t0');
    expect(await cache.get()).toBe('t1');
    cache.invalidate('t1');
    expect(await cache.get()).toBe('t2');
  });

  it('lets the next caller try again after a failed renewal', async () => {
    let fail = true;
    const cache = new TokenCache(async () => {
      if (fail) throw new Error('service down');
      return { accessToken: 'ok', expiresIn: 60 };
    });
    await expect(cache.get()).rejects.toThrow('service down');
    fail = false;
    expect(await cache.get()).toBe('ok');
  });
});
