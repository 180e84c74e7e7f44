import path from 'node:path';
import { z } from 'zod';
import { commonSettings, refuseDevSecretsInProduction } from '@/server-shared/common-settings';
import { devDefaults } from '@/server-shared/dev-defaults';
import {
  type About,
  configOf,
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

/**
 * What the embedded service runs on: each setting under its config key (`UPLOAD_WAIT_SECONDS` →
 * `uploadWaitSeconds`, settings.ts `configOf`), and below what is derived or renamed.
 */
export const serviceConfigSchema = serviceSettings.transform((s) => {
  // null disables verification webhooks.
  const webhookUrl =
    s.SERVICE_WEBHOOK_URL === 'none'
      ? null
      : (s.SERVICE_WEBHOOK_URL ?? `http://${s.HOST}:${s.PORT}/webhooks/verification`);
  const extensions = s.SERVICE_EXTENSIONS;
  return {
    ...configOf(s, [
      'NODE_ENV',
      'PORT',
      'SERVICE_PORT',
      'DATA_DIR',
      'SERVICE_CLIENT_ID',
      'SERVICE_CLIENT_SECRET',
      'SERVICE_WEBHOOK_URL',
      'PUBLIC_URL',
      'SERVICE_EXTENSIONS',
      'LIVENESS_CHALLENGE',
      'CREDIT_CHECK_SEGMENTS',
      'RETENTION_EXPIRED_DAYS',
      'OUTBOUND_ALLOWED',
      'PDF_READ_TIMEOUT_MS',
      'PDF_TEXT_PAGES',
      'PDF_PAGE_TEXT_CHARS',
    ]),
    port: s.SERVICE_PORT,
    dataDir: path.resolve(s.DATA_DIR),
    clientId: s.SERVICE_CLIENT_ID,
    clientSecret: s.SERVICE_CLIENT_SECRET,
    webhookUrl,
    /** The service's own base URL for resource and media links; null = derived from the listening address. */
    publicUrl:
      s.PUBLIC_URL?.replace(/\/+$/, '') ?? (s.SERVICE_PORT ? `http://${s.HOST}:${s.SERVICE_PORT}` : null),
    /** Whether the routes the hosted API lacks (GET /v2/flows, …) are served; off = documented routes only. */
    extensions,
    /** An extension, so only with the extensions on (the hosted API gives none). */
    livenessChallenge: extensions && s.LIVENESS_CHALLENGE,
    creditCheckSegments: [...new Set(['credit-bureau', ...s.CREDIT_CHECK_SEGMENTS])],
    retentionExpiredDays: retentionExpiredDays(s.RETENTION_EXPIRED_DAYS, s.RETENTION_DAYS),
    /** The webhook URL's origin is always among them (outbound-url.ts). */
    outboundAllowed: [...(webhookUrl ? [new URL(webhookUrl).origin] : []), ...s.OUTBOUND_ALLOWED],
    /** Bounds of one PDF reading (checks/pdf/node/pdf-reader.ts). */
    pdfReading: {
      timeLimitMs: s.PDF_READ_TIMEOUT_MS,
      textPages: s.PDF_TEXT_PAGES,
      pageTextChars: s.PDF_PAGE_TEXT_CHARS,
    } satisfies PdfReadingLimits,
  };
});

export type ServiceConfig = z.infer<typeof serviceConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): ServiceConfig {
  return parseSettings(serviceConfigSchema, env);
}
