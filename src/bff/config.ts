import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { numberSetting } from '@/server-shared/setting-number';
import path from 'node:path';
import { isHexColor } from '@/server-shared/color-contrast';
import { assertNoDevSecretsInProduction, devDefaults } from '@/server-shared/dev-defaults';

/** Settings of the BFF, read once from the environment (README.md, Settings). */
export interface BffConfig {
  host: string;
  port: number;
  /** The verification service; its origin is the only one the BFF sends the token to. */
  upstreamUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  staffPassword: string;
  /** Key of the signed session cookies. */
  sessionSecret: string;
  dataDir: string;
  /** PostgreSQL (shared by every instance); null = SQLite in dataDir (one instance). */
  databaseUrl: string | null;
  /** The built SPA; null serves the API only. */
  staticDir: string | null;
  /** This BFF's public base URL, for callback URLs; null = derived from the listening address. */
  publicUrl: string | null;
  /** Requests per IP and window on the public API. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Staff login attempts per IP and minute (a successful login resets the count). */
  staffLoginMaxPerMinute: number;
  logLevel: string;
  /**
   * Which X-Forwarded-* hops to believe (behind a TLS-terminating proxy, so that cookies get
   * Secure and client addresses are right): false, a hop count, or the proxies' addresses/CIDRs.
   */
  trustProxy: TrustProxy;
  sseHeartbeatMs: number;
  /** The look of the wizard (README, Settings: BRAND_*). */
  brand: {
    name: string;
    /** #rrggbb, or null for the default. */
    primaryColor: string | null;
    /** A CSS font-family list of fonts the device has. */
    font: string | null;
    /** A PNG, SVG, JPEG or WebP file served at /api/brand/logo. */
    logoFile: string | null;
  };
  /** Open routes (webhooks, staff sign-in, health): time for a body, and requests at once. */
  openBodyTimeoutMs: number;
  openMaxConcurrent: number;
  /** Anonymous bodies (creation, send-input): average rate required once the grace is over. */
  slowBodyMinBytesPerSecond: number;
  slowBodyGraceMs: number;
  /** Anonymous requests with a body under way at once per client address. */
  bodiesPerAddress: number;
  /** Time for a request's headers, on every route. */
  headersTimeoutMs: number;
  /** Time the service has to answer a send-input (504 `upstream.timeout` after it). */
  sendInputTimeoutMs: number;
  /** Period of the reconciliation of unfinished verifications (0: never, not even at start). */
  reconcileMs: number;
  /** Days the BFF keeps verification data, events and credit checks after their last change. */
  retentionDays: number;
  /** Folder of the flow definitions (JSON, the shared flow schema) the SPA walks people through. */
  flowsDir: string;
  /** Last path segment of the service's credit-check routes. */
  creditCheckSegment: string;
}

/** Fastify's `trustProxy` forms that name what is trusted; never `true` (every hop). */
export type TrustProxy = false | number | string[];

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: empty/`false`/`0` → off; a whole number → that many proxy hops in front of the
 * BFF; `true` → 1 hop (one proxy, never "every address in the header"); otherwise a
 * comma-separated list of proxy addresses or CIDRs (or `loopback`, `linklocal`, `uniquelocal`).
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const validBits =
      bits === undefined ||
      (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32)) ||
      (family === 4 && isIP(bits) === 4);
    if (!proxyNames.has(entry) && (family === 0 || !validBits || extra !== undefined)) {
      throw new Error(`TRUST_PROXY must be a hop count or a list of proxy addresses/CIDRs, not "${entry}"`);
    }
  }
  return entries;
}

const number = numberSetting;

function brandOf(env: Record<string, string | undefined>): BffConfig['brand'] {
  const primaryColor = env.BRAND_PRIMARY_COLOR || null;
  if (primaryColor && !isHexColor(primaryColor))
    throw new Error('BRAND_PRIMARY_COLOR must be a colour as #rrggbb');
  const font = env.BRAND_FONT || null;
  // A font-family list only: the value goes into a style, so nothing that could end it.
  if (font && !/^[A-Za-z0-9 ,'"-]{1,200}$/.test(font))
    throw new Error('BRAND_FONT must be a CSS font-family list (letters, digits, spaces, commas, quotes)');
  const logoFile = env.BRAND_LOGO_FILE ? path.resolve(env.BRAND_LOGO_FILE) : null;
  if (logoFile && !/\.(png|svg|jpe?g|webp)$/i.test(logoFile))
    throw new Error('BRAND_LOGO_FILE must be a .png, .svg, .jpg or .webp file');
  return { name: (env.BRAND_NAME || 'IDV Capture').slice(0, 80), primaryColor, font, logoFile };
}
const segment = (value: string) => {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(value)) throw new Error('CREDIT_CHECK_SEGMENT must be a path segment');
  return value;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): BffConfig {
  assertNoDevSecretsInProduction(env);
  const production = env.NODE_ENV === 'production';
  const host = env.HOST || devDefaults.HOST;
  const port = number('PORT', env.PORT, devDefaults.PORT);
  const servicePort = number('SERVICE_PORT', env.SERVICE_PORT, devDefaults.SERVICE_PORT);
  if (production && !env.STAFF_PASSWORD)
    throw new Error('STAFF_PASSWORD must be set when NODE_ENV=production');
  if (production && !env.SESSION_SECRET)
    throw new Error('SESSION_SECRET must be set when NODE_ENV=production');
  const staffPassword = env.STAFF_PASSWORD || randomBytes(9).toString('base64url');
  if (!env.STAFF_PASSWORD) console.log(`bff: generated STAFF_PASSWORD=${staffPassword}`);
  return {
    host,
    port,
    upstreamUrl: (env.UPSTREAM_URL || `http://${host}:${servicePort}`).replace(/\/+$/, ''),
    clientId: env.SERVICE_CLIENT_ID || devDefaults.SERVICE_CLIENT_ID,
    clientSecret: env.SERVICE_CLIENT_SECRET || devDefaults.SERVICE_CLIENT_SECRET,
    webhookSecret: env.WEBHOOK_SECRET || devDefaults.WEBHOOK_SECRET,
    staffPassword,
    // A per-start secret only logs everybody out on restart, which is fine in development.
    sessionSecret: env.SESSION_SECRET || randomBytes(32).toString('base64url'),
    dataDir: path.resolve(env.DATA_DIR || devDefaults.DATA_DIR),
    databaseUrl: env.DATABASE_URL || null,
    staticDir: env.STATIC_DIR === 'none' ? null : path.resolve(env.STATIC_DIR || 'dist'),
    publicUrl: env.PUBLIC_BFF_URL
      ? env.PUBLIC_BFF_URL.replace(/\/+$/, '')
      : port
        ? `http://${host}:${port}`
        : null,
    rateLimitMax: number('RATE_LIMIT_MAX', env.RATE_LIMIT_MAX, 3000),
    rateLimitWindowMs: number('RATE_LIMIT_WINDOW_MS', env.RATE_LIMIT_WINDOW_MS, 60_000),
    staffLoginMaxPerMinute: number('STAFF_LOGIN_MAX_PER_MINUTE', env.STAFF_LOGIN_MAX_PER_MINUTE, 5),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    sseHeartbeatMs: number('SSE_HEARTBEAT_MS', env.SSE_HEARTBEAT_MS, 15_000),
    brand: brandOf(env),
    openBodyTimeoutMs: number('OPEN_BODY_TIMEOUT_MS', env.OPEN_BODY_TIMEOUT_MS, 10_000),
    openMaxConcurrent: number('OPEN_MAX_CONCURRENT', env.OPEN_MAX_CONCURRENT, 64),
    slowBodyMinBytesPerSecond: number(
      'SLOW_BODY_MIN_BYTES_PER_SECOND',
      env.SLOW_BODY_MIN_BYTES_PER_SECOND,
      4096,
    ),
    slowBodyGraceMs: number('SLOW_BODY_GRACE_MS', env.SLOW_BODY_GRACE_MS, 10_000),
    bodiesPerAddress: number('BODIES_PER_ADDRESS', env.BODIES_PER_ADDRESS, 16),
    headersTimeoutMs: number('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000),
    sendInputTimeoutMs: number('SEND_INPUT_TIMEOUT_MS', env.SEND_INPUT_TIMEOUT_MS, 120_000),
    reconcileMs: number('RECONCILE_SECONDS', env.RECONCILE_SECONDS, 300) * 1000,
    retentionDays: number('RETENTION_DAYS', env.RETENTION_DAYS, 90),
    // The embedded service's own folder by default: the hosted API has no route that lists flows.
    flowsDir: path.resolve(env.FLOWS_DIR || 'src/service/verification/flows'),
    creditCheckSegment: segment(env.CREDIT_CHECK_SEGMENT || 'credit-bureau'),
  };
}
