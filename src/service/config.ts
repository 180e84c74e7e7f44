import path from 'node:path';
import { z } from 'zod';
import { commonSettings, refuseDevSecretsInProduction } from '@/server-shared/common-settings';
import { devDefaults } from '@/server-shared/dev-defaults';
import {
  type About,
  decimalListSetting,
  decimalSetting,
  isAddressOrRange,
  isProxyAddress,
  listSetting,
  optionalSetting,
  parseSettings,
  readNumber,
  setting,
  switchSetting,
  textSetting,
  urlSetting,
  wholeSetting,
} from '@/server-shared/settings';
import { DEFAULT_PDF_LIMITS, type PdfReadingLimits } from '@/checks/pdf/node/pdf-reader';

/** What the embedded service runs on: its settings (`serviceSettings`) read once from the environment. */
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
  /**
   * Keys of the access tokens: the first signs, each is accepted (a rotation). Empty: one derived
   * from the client secret, so that every instance with the same secret accepts the others' tokens.
   */
  tokenSigningKeys: string[];
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
  logLevel: string;
  /** A system FFmpeg for video frames; null = the wasm build (the checks read FFMPEG_PATH themselves). */
  ffmpegPath: string | null;
  /** Whether main.ts loads the models, the OCR data and pdf.js at start (LOAD_CHECKS_AT_START). */
  loadChecksAtStart: boolean;
  /** Bounds of one PDF reading (checks/pdf-reader.ts). */
  pdfReading: PdfReadingLimits;
}

/** A whole number ≥ 1 (0 would read nothing, or nothing in time). */
const countSetting = (fallback: number, about: About) =>
  setting({ default: String(fallback), ...about }, (raw) => {
    if (raw === undefined || raw === '') return fallback;
    const value = readNumber(raw, 'a whole number ≥ 1', true);
    if (value < 1) throw new Error(`expected a whole number ≥ 1, got ${JSON.stringify(raw)}`);
    return value;
  });

/** An origin (`http://10.0.0.5:8080`) or an address or `address/bits` (storage/outbound-url.ts). */
const outboundEntry = (entry: string) =>
  entry.includes('://') ? URL.canParse(entry) : /^[^/]+(\/\d+)?$/.test(entry) && isAddressOrRange(entry);

/** The embedded service's settings, one per environment variable (README.md, Settings, is generated from it). */
export const serviceSettings = z
  .object({
    ...commonSettings,
    PUBLIC_URL: urlSetting({
      group: 'service',
      default: '`http://$HOST:$SERVICE_PORT`',
      description: 'base URL of `resource` links and media URLs',
    }),
    SERVICE_WEBHOOK_URL: urlSetting(
      {
        group: 'service',
        default: '`http://$HOST:$PORT/webhooks/verification`',
        description: 'where verification events are delivered; `none`: no verification webhooks',
      },
      'none',
    ),
    UPLOAD_WAIT_SECONDS: decimalSetting(devDefaults.UPLOAD_WAIT_SECONDS, {
      group: 'service',
      description: "how long a document's front waits for its optional back (wire contract §5)",
    }),
    WEBHOOK_RETRY_SECONDS: decimalListSetting(devDefaults.WEBHOOK_RETRY_SECONDS, {
      group: 'service',
      description: 'delays of the redeliveries after a failed delivery, then it is given up',
    }),
    VERIFICATION_TTL_SECONDS: decimalSetting(1800, {
      group: 'service',
      description: 'a verification unfinished this long (no activity) expires (`verification_expired`)',
    }),
    RETENTION_EXPIRED_DAYS: setting(
      {
        group: 'service',
        default: '7',
        description: 'days an expired verification is kept; at most `RETENTION_DAYS` (see below)',
      },
      // null: not set, so the default 7 may shrink under a shorter RETENTION_DAYS.
      (raw) => (raw ? readNumber(raw, 'a decimal number ≥ 0', false) : null),
    ),
    TOKEN_SIGNING_KEYS: listSetting(
      '',
      {
        group: 'service',
        default: 'derived from `SERVICE_CLIENT_SECRET`',
        description:
          'keys of the access tokens (32+ characters each, by commas): the first signs, all are accepted',
      },
      { test: (entry) => entry.length >= 32, expected: 'keys of 32 characters or more separated by commas' },
    ),
    DEFAULT_FLOW_ID: textSetting('ar-national-id', {
      group: 'service',
      description: "the flow of a creation that names none (the account's default flow)",
    }),
    SERVICE_EXTENSIONS: switchSetting(true, {
      group: 'service',
      description: '`off`: only the routes the hosted API documents, every **(ext)** route answers 404',
    }),
    LIVENESS_CHALLENGE: switchSetting(true, {
      group: 'service',
      description: 'an active liveness challenge per video verification (none with extensions off)',
    }),
    DEMO_SCENARIOS: switchSetting(false, {
      group: 'service',
      description:
        "`on`: sample files' markers and the demo's synthetic registries (demos, tests; see below)",
    }),
    OUTBOUND_ALLOWED: listSetting(
      '',
      {
        group: 'service',
        default: "the webhook URL's origin",
        description:
          'origins or addresses/CIDRs that webhooks and callbacks may reach although private (see below)',
      },
      { test: outboundEntry, expected: 'origins or addresses/CIDRs separated by commas' },
    ),
    TRUSTED_PROXIES: listSetting(
      '127.0.0.1,::1',
      {
        group: 'service',
        description: "addresses/CIDRs whose `X-Forwarded-For` is believed (the BFF's); empty: nobody",
      },
      { test: isProxyAddress, expected: 'addresses or CIDRs separated by commas' },
    ),
    FFMPEG_PATH: optionalSetting({
      group: 'service',
      default: 'unset (FFmpeg from npm, wasm)',
      description: 'a system FFmpeg for the frames of liveness videos (see below)',
    }),
    LOAD_CHECKS_AT_START: switchSetting(true, {
      group: 'tuning',
      description:
        '`off`: the face models, the OCR data and pdf.js load at the first check, not at start (a quicker start, a slower first check)',
    }),
    PDF_READ_TIMEOUT_MS: countSetting(DEFAULT_PDF_LIMITS.timeLimitMs, {
      group: 'tuning',
      description:
        'time one PDF reading may take; past it the input is accepted unread, for a review (see below)',
    }),
    PDF_TEXT_PAGES: countSetting(DEFAULT_PDF_LIMITS.textPages, {
      group: 'tuning',
      description: "pages of a statement whose text is read (a custom document's: 5 at most)",
    }),
    PDF_PAGE_TEXT_CHARS: countSetting(DEFAULT_PDF_LIMITS.pageTextChars, {
      group: 'tuning',
      description: 'characters of text a PDF page may hold; a page with more is refused',
    }),
    WEBHOOK_TIMEOUT_MS: wholeSetting(10_000, {
      group: 'tuning',
      description: 'a webhook receiver slower than this counts as a failed delivery',
    }),
    OAUTH_FAILURES_PER_MINUTE: wholeSetting(20, {
      group: 'tuning',
      description: 'wrong client credentials per connection address and minute before `/oauth` answers 429',
    }),
    TOKEN_TTL_SECONDS: setting(
      {
        group: 'tests',
        default: '3600',
        description: 'lifetime of an access token (short, to test renewal); 0: the default',
      },
      (raw) => (raw ? readNumber(raw, 'a decimal number ≥ 0', false) : 0) || 3600,
    ),
    PROCESSING_STEP_MS: wholeSetting(150, {
      group: 'tests',
      description: 'pause between verification steps, so that `step_completed` events come one by one',
    }),
    CREDIT_CHECK_SEGMENTS: listSetting(
      '',
      {
        group: 'tests',
        description: 'more last path segments of the credit-check routes, beside `credit-bureau`',
      },
      { test: (entry) => /^[A-Za-z0-9_-]+$/.test(entry), expected: 'path segments separated by commas' },
    ),
  })
  .superRefine((values, ctx) => {
    refuseDevSecretsInProduction(values, ctx);
    // An expired verification is never kept longer than the rest (when RETENTION_DAYS is not 0).
    const expired = values.RETENTION_EXPIRED_DAYS;
    if (expired !== null && values.RETENTION_DAYS > 0 && expired > values.RETENTION_DAYS)
      ctx.addIssue({
        code: 'custom',
        path: ['RETENTION_EXPIRED_DAYS'],
        message: `expected at most RETENTION_DAYS (${values.RETENTION_DAYS}), got "${expired}"`,
      });
  });

/**
 * Days an expired verification is kept: never longer than RETENTION_DAYS (when that is not 0), so
 * the default 7 shrinks under a shorter retention (a longer value set on purpose is refused above).
 */
function retentionExpiredDays(set: number | null, retentionDays: number) {
  const expired = set ?? 7;
  if (expired === 0) return retentionDays;
  return retentionDays > 0 ? Math.min(expired, retentionDays) : expired;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): ServiceConfig {
  const s = parseSettings(serviceSettings, env);
  const webhookUrl =
    s.SERVICE_WEBHOOK_URL === 'none'
      ? null
      : (s.SERVICE_WEBHOOK_URL ?? `http://${s.HOST}:${s.PORT}/webhooks/verification`);
  const extensions = s.SERVICE_EXTENSIONS;
  return {
    host: s.HOST,
    port: s.SERVICE_PORT,
    dataDir: path.resolve(s.DATA_DIR),
    databaseUrl: s.DATABASE_URL,
    clientId: s.SERVICE_CLIENT_ID,
    clientSecret: s.SERVICE_CLIENT_SECRET,
    webhookSecret: s.WEBHOOK_SECRET,
    webhookUrl,
    uploadWaitSeconds: s.UPLOAD_WAIT_SECONDS,
    webhookRetrySeconds: s.WEBHOOK_RETRY_SECONDS,
    tokenSigningKeys: s.TOKEN_SIGNING_KEYS,
    tokenTtlSeconds: s.TOKEN_TTL_SECONDS,
    publicUrl:
      s.PUBLIC_URL?.replace(/\/+$/, '') ?? (s.SERVICE_PORT ? `http://${s.HOST}:${s.SERVICE_PORT}` : null),
    processingStepMs: s.PROCESSING_STEP_MS,
    verificationTtlSeconds: s.VERIFICATION_TTL_SECONDS,
    webhookTimeoutMs: s.WEBHOOK_TIMEOUT_MS,
    oauthFailuresPerMinute: s.OAUTH_FAILURES_PER_MINUTE,
    defaultFlowId: s.DEFAULT_FLOW_ID,
    extensions,
    demoScenarios: s.DEMO_SCENARIOS,
    livenessChallenge: extensions && s.LIVENESS_CHALLENGE,
    creditCheckSegments: [...new Set(['credit-bureau', ...s.CREDIT_CHECK_SEGMENTS])],
    openBodyTimeoutMs: s.OPEN_BODY_TIMEOUT_MS,
    openMaxConcurrent: s.OPEN_MAX_CONCURRENT,
    headersTimeoutMs: s.HEADERS_TIMEOUT_MS,
    retentionDays: s.RETENTION_DAYS,
    retentionExpiredDays: retentionExpiredDays(s.RETENTION_EXPIRED_DAYS, s.RETENTION_DAYS),
    trustedProxies: s.TRUSTED_PROXIES,
    outboundAllowed: [...(webhookUrl ? [new URL(webhookUrl).origin] : []), ...s.OUTBOUND_ALLOWED],
    logLevel: s.LOG_LEVEL,
    ffmpegPath: s.FFMPEG_PATH,
    loadChecksAtStart: s.LOAD_CHECKS_AT_START,
    pdfReading: {
      timeLimitMs: s.PDF_READ_TIMEOUT_MS,
      textPages: s.PDF_TEXT_PAGES,
      pageTextChars: s.PDF_PAGE_TEXT_CHARS,
    },
  };
}
