import { Pool, type buildConnector, type Dispatcher } from 'undici';
import { BffHttpError, upstreamFailed, upstreamStorageFull, upstreamUnavailable } from '../errors';
import { requestErrorSchema } from '@/shared/contract/send-input';
import { tokenSchema } from '@/shared/contract/service-api';
import { TokenCache } from './token-cache';

type Body = Dispatcher.DispatchOptions['body'];
type Headers = Record<string, string>;

export interface UpstreamOptions {
  upstreamUrl: string;
  clientId: string;
  clientSecret: string;
  connections?: number;
}

export interface UpstreamResponse {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Dispatcher.ResponseData['body'];
}

const connectionErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

const connectFailureCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether the service could not even be connected to (rather than dropping a connection). */
export function isConnectFailure(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown; errors?: unknown[] } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code && connectFailureCodes.has(e.code)) return true;
    if (Array.isArray(e.errors) && e.errors.some(isConnectFailure)) return true;
  }
  return false;
}

/** Whether an error means "the service could not be reached", as opposed to a bug of ours. */
export function isConnectionError(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown; errors?: unknown[] } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code && connectionErrorCodes.has(e.code)) return true;
    if (Array.isArray(e.errors) && e.errors.some(isConnectionError)) return true;
  }
  return false;
}

/**
 * The only way the BFF talks to the service: one connection pool to UPSTREAM_URL's origin, the
 * bearer token added to every call, renewed before expiry and once more on a 401.
 */
export class UpstreamClient {
  readonly origin: string;
  readonly tokens: TokenCache;
  private readonly basePath: string;
  private readonly pool: Pool;

  constructor(private readonly options: UpstreamOptions) {
    const url = new URL(options.upstreamUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    // An upload chunk is up to 64 KB: at undici's 64 KB socket mark every write would pause the
    // body until 'drain'. Room for a few chunks keeps a streamed upload flowing (net.connect takes
    // highWaterMark; undici passes it on, its types do not list it).
    const connect: buildConnector.BuildOptions & { highWaterMark: number } = {
      timeout: 5_000,
      highWaterMark: 256 * 1024,
    };
    this.pool = new Pool(this.origin, {
      connections: options.connections ?? 64,
      keepAliveTimeout: 10_000,
      connect,
    });
    this.tokens = new TokenCache(() => this.fetchToken());
  }

  /** The path of a service URL on UPSTREAM_URL's origin (and base path), or null for any other URL. */
  localPath(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.origin !== this.origin || !parsed.pathname.startsWith(`${this.basePath}/`)) return null;
    return parsed.pathname.slice(this.basePath.length) + parsed.search;
  }

  private async postOAuth(timeoutMs?: number) {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    return this.raw({
      method: 'POST',
      path: '/oauth',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      timeoutMs,
    });
  }

  private async fetchToken() {
    const res = await this.postOAuth();
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw upstreamFailed('The verification service refused our credentials.', 'upstream.auth');
    }
    const token = tokenSchema.safeParse(await res.body.json().catch(() => null));
    if (!token.success) throw upstreamFailed('The verification service sent no token.', 'upstream.auth');
    return { accessToken: token.data.access_token, expiresIn: token.data.expiresIn };
  }

  /** Health: whether the service answers /oauth and issues a token for our credentials. */
  async credentialsWork(): Promise<'ok' | 'unavailable' | 'error'> {
    try {
      const res = await this.postOAuth(3_000);
      await res.body.dump();
      return res.statusCode === 200 ? 'ok' : 'error';
    } catch (error) {
      return error instanceof BffHttpError && error.body.code === 'upstream.unavailable'
        ? 'unavailable'
        : 'error';
    }
  }

  /** One call without the token; connection failures become 503 envelopes. */
  private async raw(options: {
    method: Dispatcher.HttpMethod;
    path: string;
    headers?: Headers;
    body?: Body;
    timeoutMs?: number;
    signal?: AbortSignal;
  }): Promise<UpstreamResponse> {
    try {
      const res = await this.pool.request({
        method: options.method,
        path: this.basePath + options.path,
        headers: options.headers,
        body: options.body,
        headersTimeout: options.timeoutMs ?? 30_000,
        bodyTimeout: options.timeoutMs ?? 30_000,
        signal: options.signal,
      });
      return { statusCode: res.statusCode, headers: res.headers, body: res.body };
    } catch (error) {
      if (error instanceof BffHttpError) throw error;
      if (isConnectionError(error)) throw upstreamUnavailable(error);
      throw error;
    }
  }

  /**
   * A call with the bearer token. A replayable body (string, Buffer or none) is retried once with
   * a fresh token on a 401; a stream is not, and its caller sees the 401.
   */
  async call(options: {
    method: Dispatcher.HttpMethod;
    path: string;
    headers?: Headers;
    body?: Body;
    timeoutMs?: number;
    requestId?: string;
    forStream?: boolean;
    signal?: AbortSignal;
  }): Promise<UpstreamResponse> {
    const replayable =
      options.body === undefined || typeof options.body === 'string' || Buffer.isBuffer(options.body);
    const send = async () => {
      const token = await this.tokens.get({ forStream: options.forStream });
      const headers: Headers = { ...options.headers, authorization: `Bearer ${token}` };
      if (options.requestId) headers['x-request-id'] = options.requestId;
      try {
        return { token, res: await this.raw({ ...options, headers }) };
      } catch (error) {
        // A stream cut once under way may be the service refusing our token: it answers 401 and
        // closes without reading the rest, and the answer is lost with the connection. The next
        // call then starts with a fresh token rather than meeting the same refusal.
        if (!replayable && !isConnectFailure(error)) this.tokens.invalidate(token);
        throw error;
      }
    };
    const first = await send();
    if (first.res.statusCode !== 401) return first.res;
    this.tokens.invalidate(first.token);
    if (!replayable) return first.res;
    await first.res.body.dump();
    const second = await send();
    if (second.res.statusCode === 401) {
      await second.res.body.dump();
      throw upstreamFailed('The verification service refused our token.', 'upstream.auth');
    }
    return second.res;
  }

  /** A JSON call: the parsed body of a 2xx answer, or the service's error as an envelope. */
  async json<T = unknown>(
    method: Dispatcher.HttpMethod,
    path: string,
    options: { body?: unknown; requestId?: string; headers?: Headers } = {},
  ): Promise<{ statusCode: number; body: T }> {
    const res = await this.call({
      method,
      path,
      requestId: options.requestId,
      headers:
        options.body === undefined
          ? { ...options.headers, accept: 'application/json' }
          : { ...options.headers, accept: 'application/json', 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    if (res.statusCode >= 200 && res.statusCode < 300) {
      const text = await res.body.text();
      return { statusCode: res.statusCode, body: (text ? JSON.parse(text) : null) as T };
    }
    throw await envelopeOf(res);
  }

  /** A GET of a link the service handed out (a media link), with the token; only on its origin. */
  async getUrl(url: string, requestId?: string): Promise<UpstreamResponse | null> {
    const path = this.localPath(url);
    return path === null ? null : this.call({ method: 'GET', path, requestId, timeoutMs: 120_000 });
  }

  async close() {
    await this.pool.close();
  }
}

/**
 * The service's request-level error turned into the BFF's envelope, keeping the status (5xx → 502,
 * but a full disk, 507, → 503 `upstream.storageFull`: the person can be told to try later).
 */
export async function envelopeOf(res: UpstreamResponse): Promise<BffHttpError> {
  // Not JSON (a proxy's HTML page, say), or another shape: the status alone tells enough.
  const body = requestErrorSchema.safeParse(await res.body.json().catch(() => null)).data;
  // 507 is the service's "nothing could be stored" (wire contract); a body of another type is
  // not that answer, just an odd 5xx.
  if (res.statusCode === 507 && (body?.type ?? 'SystemError') === 'SystemError') return upstreamStorageFull();
  if (res.statusCode >= 500) return upstreamFailed();
  return new BffHttpError(res.statusCode, {
    code: typeof body?.code === 'string' ? body.code : (body?.name ?? `upstream.${res.statusCode}`),
    type: body?.type ?? (res.statusCode === 401 ? 'AuthError' : 'IntegrationError'),
    message: body?.message ?? `The verification service answered ${res.statusCode}.`,
  });
}
