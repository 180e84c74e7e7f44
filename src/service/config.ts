import path from 'node:path';
import { assertNoDevSecretsInProduction, devDefaults } from '@/server-shared/dev-defaults';
import { numberListSetting, numberSetting } from '@/server-shared/setting-number';

/** Settings of the embedded service (wire contract §0), read once from the environment. */
export interface ServiceConfig {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL for the webhook outbox; null = the outbox stays in SQLite with the rest. */
  databaseUrl: string | null;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** Where verification events go; null disables verification webhooks. */
  webhookUrl: string | null;
  uploadWaitSeconds: number;
  webhookRetrySeconds: number[];
  /** Lifetime of an access token (ext, for tests of token renewal). */
  tokenTtlSeconds: number;
  /** The service's own base URL for resource and media links; null = derived from the listening address. */
  publicUrl: string | null;
  /** Pause between processing steps, so that progress is visible (ext). */
  processingStepMs: number;
  /** A verification with no activity for this long, its inputs not complete, expires. */
  verificationTtlSeconds: number;
  /** Timeout of one webhook delivery attempt. */
  webhookTimeoutMs: number;
  /** Wrong client credentials one address may send per minute before /oauth answers 429 (ext). */
  oauthFailuresPerMinute: number;
  /** The account's default flow: used by a creation that names none. */
  defaultFlowId: string;
  /** Whether the routes the hosted API lacks (GET /v2/flows, …) are served; off = documented routes only. */
  extensions: boolean;
  /**
   * Chooses an active liveness challenge for every video verification: an extension, so only with
   * the extensions on (the hosted API gives none); `LIVENESS_CHALLENGE=off` turns it off alone.
   */
  livenessChallenge: boolean;
  /**
   * Whether the sample markers (`idv-person=`, `idv-scenario=` in a file's metadata) are read, and
   * the demo's synthetic watch list and registries answer: for tests and demos only. Off, a marker
   * changes nothing and the facts are what the pixels give (anyone can write such metadata).
   */
  demoScenarios: boolean;
  /** Last path segments the credit-check routes answer on (the hosted one is `credit-bureau`). */
  creditCheckSegments: string[];
  /**
   * Origins or addresses/CIDRs that webhooks and callbacks may reach although they are loopback or
   * private (outbound-url.ts); the webhook URL's origin is always among them.
   */
  outboundAllowed: string[];
  /** `/oauth` (the one route without a token): time for a body, and requests at once. */
  openBodyTimeoutMs: number;
  openMaxConcurrent: number;
  /** Time for a request's headers, on every route. */
  headersTimeoutMs: number;
  /** Addresses whose X-Forwarded-For is believed (the BFF's), for the person's address. */
  trustedProxies: string[];
  /** Days a verification (and credit checks, events) is kept after its last change; 0 = forever. */
  retentionDays: number;
  /** Days an expired verification is kept; 0 = as long as RETENTION_DAYS. */
  retentionExpiredDays: number;
}

const positiveNumber = numberSetting;

function parseSwitch(name: string, value: string | undefined, fallback: boolean) {
  if (value === undefined || value === '') return fallback;
  if (['on', 'true', '1'].includes(value)) return true;
  if (['off', 'false', '0'].includes(value)) return false;
  throw new Error(`${name} must be on or off`);
}

export function parseRetrySchedule(value: string): number[] {
  try {
    return numberListSetting('WEBHOOK_RETRY_SECONDS', value);
  } catch {
    throw new Error('WEBHOOK_RETRY_SECONDS must be a comma-separated list of seconds');
  }
}

/**
 * Days an expired verification is kept: never longer than RETENTION_DAYS (when that is not 0), so
 * the default 7 shrinks under a shorter retention, and a longer value set on purpose is refused.
 */
function retentionExpiredDays(env: Record<string, string | undefined>, retentionDays: number) {
  const expired = positiveNumber('RETENTION_EXPIRED_DAYS', env.RETENTION_EXPIRED_DAYS, 7);
  if (env.RETENTION_EXPIRED_DAYS && retentionDays > 0 && expired > retentionDays) {
    throw new Error(`RETENTION_EXPIRED_DAYS (${expired}) must not exceed RETENTION_DAYS (${retentionDays})`);
  }
  if (expired === 0) return retentionDays;
  return retentionDays > 0 ? Math.min(expired, retentionDays) : expired;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): ServiceConfig {
  assertNoDevSecretsInProduction(env);
  const host = env.HOST || devDefaults.HOST;
  const port = positiveNumber('SERVICE_PORT', env.SERVICE_PORT, devDefaults.SERVICE_PORT);
  const bffPort = positiveNumber('PORT', env.PORT, devDefaults.PORT);
  const webhookUrl =
    env.SERVICE_WEBHOOK_URL === 'none'
      ? null
      : env.SERVICE_WEBHOOK_URL || `http://${host}:${bffPort}/webhooks/verification`;
  return {
    host,
    port,
    dataDir: path.resolve(env.DATA_DIR || devDefaults.DATA_DIR),
    databaseUrl: env.DATABASE_URL || null,
    clientId: env.SERVICE_CLIENT_ID || devDefaults.SERVICE_CLIENT_ID,
    clientSecret: env.SERVICE_CLIENT_SECRET || devDefaults.SERVICE_CLIENT_SECRET,
    webhookSecret: env.WEBHOOK_SECRET || devDefaults.WEBHOOK_SECRET,
    webhookUrl,
    uploadWaitSeconds: positiveNumber(
      'UPLOAD_WAIT_SECONDS',
      env.UPLOAD_WAIT_SECONDS,
      devDefaults.UPLOAD_WAIT_SECONDS,
    ),
    webhookRetrySeconds: parseRetrySchedule(env.WEBHOOK_RETRY_SECONDS || devDefaults.WEBHOOK_RETRY_SECONDS),
    tokenTtlSeconds: positiveNumber('TOKEN_TTL_SECONDS', env.TOKEN_TTL_SECONDS, 3600) || 3600,
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : port ? `http://${host}:${port}` : null,
    processingStepMs: positiveNumber('PROCESSING_STEP_MS', env.PROCESSING_STEP_MS, 150),
    verificationTtlSeconds: positiveNumber('VERIFICATION_TTL_SECONDS', env.VERIFICATION_TTL_SECONDS, 1800),
    webhookTimeoutMs: positiveNumber('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000),
    oauthFailuresPerMinute: positiveNumber('OAUTH_FAILURES_PER_MINUTE', env.OAUTH_FAILURES_PER_MINUTE, 20),
    defaultFlowId: env.DEFAULT_FLOW_ID || 'ar-national-id',
    extensions: parseSwitch('SERVICE_EXTENSIONS', env.SERVICE_EXTENSIONS, true),
    demoScenarios: parseSwitch('DEMO_SCENARIOS', env.DEMO_SCENARIOS, false),
    livenessChallenge:
      parseSwitch('SERVICE_EXTENSIONS', env.SERVICE_EXTENSIONS, true) &&
      parseSwitch('LIVENESS_CHALLENGE', env.LIVENESS_CHALLENGE, true),
    creditCheckSegments: [
      ...new Set(['credit-bureau', ...(env.CREDIT_CHECK_SEGMENTS ?? '').split(',').map((x) => x.trim())]),
    ].filter((x) => /^[A-Za-z0-9_-]+$/.test(x)),
    openBodyTimeoutMs: positiveNumber('OPEN_BODY_TIMEOUT_MS', env.OPEN_BODY_TIMEOUT_MS, 10_000),
    openMaxConcurrent: positiveNumber('OPEN_MAX_CONCURRENT', env.OPEN_MAX_CONCURRENT, 64),
    headersTimeoutMs: positiveNumber('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000),
    retentionDays: positiveNumber('RETENTION_DAYS', env.RETENTION_DAYS, 90),
    retentionExpiredDays: retentionExpiredDays(env, positiveNumber('RETENTION_DAYS', env.RETENTION_DAYS, 90)),
    trustedProxies: (env.TRUSTED_PROXIES ?? '127.0.0.1,::1')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    outboundAllowed: [
      ...(webhookUrl ? [new URL(webhookUrl).origin] : []),
      ...(env.OUTBOUND_ALLOWED ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ],
  };
}
