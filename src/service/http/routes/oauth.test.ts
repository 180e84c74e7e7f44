import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { olderTokenSchema } from '@/shared/contract/service-api';
import { basicAuth, getToken, startService, type RunningService } from '../../testing/harness';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ TOKEN_TTL_SECONDS: '3' });
});
afterAll(() => svc.close());

const oauth = (authorization: string | undefined, body = 'grant_type=client_credentials') =>
  fetch(`${svc.url}/oauth`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(authorization ? { authorization } : {}),
    },
    body,
  });

describe('POST /oauth', () => {
  it('issues a JWT for the client credentials', async () => {
    const response = await oauth(basicAuth(svc.config.clientId, svc.config.clientSecret));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; expiresIn: number };
    expect(body.expiresIn).toBe(3);
    expect(body.access_token.split('.')).toHaveLength(3);
  });

  it('refuses wrong or missing credentials with invalid_client', async () => {
    for (const authorization of [
      basicAuth(svc.config.clientId, 'wrong'),
      basicAuth('someone', svc.config.clientSecret),
      undefined,
    ]) {
      const response = await oauth(authorization);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 401, name: 'invalid_client' });
    }
  });

  it('needs grant_type=client_credentials', async () => {
    const response = await oauth(
      basicAuth(svc.config.clientId, svc.config.clientSecret),
      'grant_type=password',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ name: 'unsupported_grant_type' });
  });
});

describe('bearer tokens', () => {
  const flows = (authorization?: string) =>
    fetch(`${svc.url}/v2/flows`, { headers: authorization ? { authorization } : {} });

  it('refuses missing, malformed and badly signed tokens', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(svc.config.clientId)
      .setIssuer('idv-embedded-service')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-key-not-the-key-not-the-key'));
    for (const authorization of [
      undefined,
      'Bearer',
      'Bearer not.a.jwt',
      `Bearer ${forged}`,
      basicAuth('a', 'b'),
    ]) {
      const response = await flows(authorization);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 401, name: 'unauthorized' });
    }
  });

  it('accepts a fresh token and refuses it once expired (TOKEN_TTL_SECONDS=3)', async () => {
    const token = await getToken(svc.url, svc.config);
    expect((await flows(`Bearer ${token}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 4100));
    const response = await flows(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 401, name: 'unauthorized' });
  });

  it('protects media and send-input too', async () => {
    expect((await fetch(`${svc.url}/media/${'a'.repeat(32)}`)).status).toBe(401);
    expect(
      (await fetch(`${svc.url}/v2/identities/x/send-input`, { method: 'POST', body: new FormData() })).status,
    ).toBe(401);
  });
});

describe('tokens', () => {
  it('refuses a token signed with the right key but without exp', async () => {
    const svc = await startService();
    try {
      const { SignJWT } = await import('jose');
      const { createHmac } = await import('node:crypto');
      const key = new Uint8Array(
        createHmac('sha256', svc.config.clientSecret).update('idv-service-access-token').digest(),
      );
      const forever = await new SignJWT({ scope: 'verifications' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(svc.config.clientId)
        .setIssuer('idv-embedded-service')
        .setIssuedAt()
        .sign(key);
      const response = await fetch(`${svc.url}/v2/flows`, {
        headers: { authorization: `Bearer ${forever}` },
      });
      expect(response.status).toBe(401);
    } finally {
      await svc.close();
    }
  });

  it('refuses a token signed with the right key that would live longer than TOKEN_TTL_SECONDS (issue 21)', async () => {
    const svc = await startService();
    try {
      const { createHmac } = await import('node:crypto');
      const key = new Uint8Array(
        createHmac('sha256', svc.config.clientSecret).update('idv-service-access-token').digest(),
      );
      const now = Math.floor(Date.now() / 1000);
      const signed = (claims: { iat?: number; exp: number }) => {
        const jwt = new SignJWT({ scope: 'verifications' })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(svc.config.clientId)
          .setIssuer('idv-embedded-service')
          .setExpirationTime(claims.exp);
        return (claims.iat === undefined ? jwt : jwt.setIssuedAt(claims.iat)).sign(key);
      };
      const flows = async (token: string) =>
        (await fetch(`${svc.url}/v2/flows`, { headers: { authorization: `Bearer ${token}` } })).status;
      // exp 1e15 (the year 31 million), with and without iat; a day-long one; one issued in the future.
      expect(await flows(await signed({ iat: now, exp: 1e15 }))).toBe(401);
      expect(await flows(await signed({ exp: 1e15 }))).toBe(401);
      expect(await flows(await signed({ iat: now, exp: now + 86_400 }))).toBe(401);
      expect(await flows(await signed({ iat: now + 86_400, exp: now + 86_400 + 60 }))).toBe(401);
      // One shaped as the service issues them is taken.
      expect(await flows(await signed({ iat: now, exp: now + svc.config.tokenTtlSeconds }))).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('POST /oauth under a guessing attack', () => {
  it('counts wrong credentials per connection address, whatever X-Forwarded-For says (issue 21)', async () => {
    // Loopback is a trusted proxy by default (TRUSTED_PROXIES): its X-Forwarded-For is believed
    // for the ip-validation step, but must not give each guess an address of its own.
    const guarded = await startService({ OAUTH_FAILURES_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${guarded.url}/oauth`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basicAuth(guarded.config.clientId, `guess-${i}`),
            'x-forwarded-for': `203.0.113.${i + 1}`,
          },
          body: 'grant_type=client_credentials',
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    } finally {
      await guarded.close();
    }
  });

  it('counts only wrong credentials, then refuses the address with 429 and Retry-After', async () => {
    const guarded = await startService({ OAUTH_FAILURES_PER_MINUTE: '3' });
    try {
      const post = (authorization: string) =>
        fetch(`${guarded.url}/oauth`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
          body: 'grant_type=client_credentials',
        });
      const right = basicAuth(guarded.config.clientId, guarded.config.clientSecret);
      // A client renewing its token often is never limited.
      for (let i = 0; i < 10; i++) expect((await post(right)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const wrong = await post(basicAuth(guarded.config.clientId, `guess-${i}`));
        expect(wrong.status).toBe(401);
      }
      const refused = await post(basicAuth(guarded.config.clientId, 'guess-4'));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ code: 429, name: 'too_many_requests' });
      // The lockout never refuses the right secret (the real client keeps renewing its token).
      expect((await post(right)).status).toBe(200);
      // Tokens issued before still work: the limit is on getting new ones.
      expect((await fetch(`${guarded.url}/v2/flows`, { headers: guarded.auth })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('POST /oauth/token, the older token route (issue 39, item 5)', () => {
  // As mati-verification-api-js's v1 service asks for its token: Basic client credentials and
  // `grant_type=client_credentials&scope=identity`, form-encoded.
  const older = (
    url: string,
    authorization: string | undefined,
    body = 'grant_type=client_credentials&scope=identity',
  ) =>
    fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization ? { authorization } : {}),
      },
      body,
    });

  it('issues the same token as /oauth, with token_type and expires_in, and it opens the API', async () => {
    const response = await older(svc.url, basicAuth(svc.config.clientId, svc.config.clientSecret));
    expect(response.status).toBe(200);
    const body = olderTokenSchema.parse(await response.json());
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3, expiresIn: 3 });
    expect(body.payload.user._id).toMatch(/^[0-9a-f]{24}$/);
    const flows = await fetch(`${svc.url}/v2/flows`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(flows.status).toBe(200);
  });

  it('refuses as /oauth does: invalid_client, unsupported_grant_type', async () => {
    for (const authorization of [basicAuth(svc.config.clientId, 'wrong'), undefined]) {
      const response = await older(svc.url, authorization);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 401, name: 'invalid_client' });
    }
    const password = await older(
      svc.url,
      basicAuth(svc.config.clientId, svc.config.clientSecret),
      'grant_type=password',
    );
    expect(password.status).toBe(400);
    expect(await password.json()).toMatchObject({ name: 'unsupported_grant_type' });
  });

  it('shares the failure count of /oauth: guesses split over both routes are limited together', async () => {
    const guarded = await startService({ OAUTH_FAILURES_PER_MINUTE: '3', SERVICE_EXTENSIONS: 'off' });
    try {
      const guess = (i: number) => basicAuth(guarded.config.clientId, `guess-${i}`);
      const statuses = [
        (await older(guarded.url, guess(0))).status,
        (await oauthAt(guarded.url, guess(1))).status,
        (await older(guarded.url, guess(2))).status,
        (await oauthAt(guarded.url, guess(3))).status,
      ];
      expect(statuses).toEqual([401, 401, 401, 429]);
      const refused = await older(guarded.url, guess(4));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ code: 429, name: 'too_many_requests' });
      // The right secret is never refused, on either route; extensions off keep the route (the
      // hosted API has it).
      const right = basicAuth(guarded.config.clientId, guarded.config.clientSecret);
      expect((await older(guarded.url, right)).status).toBe(200);
      expect((await oauthAt(guarded.url, right)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

function oauthAt(url: string, authorization: string) {
  return fetch(`${url}/oauth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
    body: 'grant_type=client_credentials',
  });
}
describe('tokens across instances', () => {
  it('a token of one instance is taken by another with the same settings; TOKEN_SIGNING_KEYS rotates', async () => {
    const oldKey = 'old-signing-key-old-signing-key-0001';
    const newKey = 'new-signing-key-new-signing-key-0002';
    const status = async (to: RunningService, from: RunningService) =>
      (await fetch(`${to.url}/v2/flows`, { headers: from.auth })).status;
    // Each its own DATA_DIR: nothing of a token is kept by the instance that issued it.
    const [derivedA, derivedB, before, during, after] = await Promise.all([
      startService(),
      startService(),
      startService({ TOKEN_SIGNING_KEYS: oldKey }),
      startService({ TOKEN_SIGNING_KEYS: `${newKey},${oldKey}` }),
      startService({ TOKEN_SIGNING_KEYS: newKey }),
    ]);
    try {
      expect(await status(derivedB, derivedA)).toBe(200);
      expect(await status(during, before)).toBe(200);
      expect(await status(after, during)).toBe(200);
      // A key out of the list, or none set (derived from the secret) against set keys: refused.
      expect(await status(after, before)).toBe(401);
      expect(await status(derivedA, before)).toBe(401);
      expect(await status(before, derivedA)).toBe(401);
    } finally {
      await Promise.all([derivedA, derivedB, before, during, after].map((s) => s.close()));
    }
  });
});
