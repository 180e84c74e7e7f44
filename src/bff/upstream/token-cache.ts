/** An access token and when it stops working. */
export interface Token {
  value: string;
  expiresAt: number;
  lifetimeMs: number;
}

/** The exp claim of a JWT in milliseconds, read without verifying (only to renew in time). */
export function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * Caches the service's OAuth token and renews it before it expires. One renewal at a time:
 * concurrent callers share the pending one.
 */
export class TokenCache {
  private token: Token | null = null;
  private pending: Promise<Token> | null = null;

  constructor(
    private readonly fetchToken: () => Promise<{ accessToken: string; expiresIn: number }>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A token valid for a while yet. `forStream` asks for a longer remaining life, because a
   * streamed upload cannot be replayed if the token expires while it is being sent.
   */
  async get(options: { forStream?: boolean } = {}): Promise<string> {
    const token = this.token;
    if (token && token.expiresAt - this.now() > this.margin(token, options.forStream ?? false))
      return token.value;
    return (await this.renew()).value;
  }

  /** Takes a token obtained elsewhere (a test's stale token, say) as the current one. */
  prime(value: string, expiresAt: number) {
    this.token = { value, expiresAt, lifetimeMs: Math.max(1, expiresAt - this.now()) };
  }

  /** Forgets the token the service refused, unless a newer one already replaced it. */
  invalidate(value: string) {
    if (this.token?.value === value) this.token = null;
  }

  private margin(token: Token, forStream: boolean) {
    return forStream ? Math.min(300_000, token.lifetimeMs / 2) : Math.min(60_000, token.lifetimeMs / 5);
  }

  private renew(): Promise<Token> {
    this.pending ??= (async () => {
      try {
        const started = this.now();
        const { accessToken, expiresIn } = await this.fetchToken();
        // Counted from before the request, so that the cache never outlives the token; a JWT's own
        // exp (whole seconds, so up to a second earlier) wins when it is sooner.
        const expiresAt = Math.min(
          started + Math.max(1, expiresIn) * 1000,
          jwtExpiry(accessToken) ?? Infinity,
        );
        this.token = { value: accessToken, expiresAt, lifetimeMs: Math.max(1, expiresAt - started) };
        return this.token;
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }
}
