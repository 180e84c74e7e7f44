import { randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isHexColor } from '@/server-shared/color-contrast';
import { commonSettings, refuseDevSecretsInProduction } from '@/server-shared/common-settings';
import { devDefaults, devSecretNames } from '@/server-shared/dev-defaults';
import {
  configOf,
  decimalSetting,
  isProxyAddress,
  optionalSetting,
  parseSettings,
  setting,
  SettingError,
  textSetting,
  urlSetting,
  wholeSetting,
} from '@/server-shared/settings';

/** Fastify's `trustProxy` forms that name what is trusted; never `true` (every hop). */
export type TrustProxy = false | number | string[];

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
    if (!isProxyAddress(entry)) {
      throw new SettingError(
        'TRUST_PROXY',
        `expected a hop count or a list of proxy addresses/CIDRs, got ${JSON.stringify(entry)}`,
      );
    }
  }
  return entries;
}

/** Whether a listen address reaches this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIPv4(bare)) return bare.startsWith('127.');
  if (isIPv6(bare)) return bare === '::1' || /^::ffff:127\./.test(bare) || /^(0+:){7}0*1$/.test(bare);
  return false;
}

const fontList = /^[A-Za-z0-9 ,'"-]{1,200}$/;

/** The BFF's settings, one per environment variable (README.md, Settings, is generated from it). */
export const bffSettings = z
  .object({
    ...commonSettings,
    UPSTREAM_URL: urlSetting({
      group: 'production',
      default: '`http://$HOST:$SERVICE_PORT`',
      description: 'the service the BFF talks to (the hosted one in production)',
    }),
    STATIC_DIR: textSetting('dist', {
      group: 'production',
      description: 'the built SPA the BFF serves; `none` serves the API only',
    }),
    STAFF_PASSWORD: optionalSetting({
      group: 'production',
      default: 'generated, printed at start',
      description: 'login of the staff console (required with `NODE_ENV=production`)',
    }),
    SESSION_SECRET: optionalSetting({
      group: 'production',
      default: 'random per start',
      description:
        'key of the signed session cookies: set it to keep sessions across restarts (required with `NODE_ENV=production`)',
    }),
    PUBLIC_BFF_URL: urlSetting({
      group: 'production',
      default: '`http://$HOST:$PORT`',
      description: "public base URL: credit-check `callbackUrl`, the phone handoff's QR code",
    }),
    TRUST_PROXY: setting(
      {
        group: 'production',
        default: 'off',
        description: 'behind a TLS-terminating proxy: hop count or proxy addresses (see below)',
      },
      parseTrustProxy,
    ),
    BRAND_NAME: textSetting('IDV Capture', {
      group: 'production',
      default: 'IDV Capture',
      description: "brand in the wizard's header and the consent notice's controller (80 characters kept)",
    }),
    BRAND_PRIMARY_COLOR: optionalSetting(
      {
        group: 'production',
        default: '(blue)',
        description: "the wizard's primary colour as `#rrggbb` (see below)",
      },
      { test: isHexColor, expected: 'a colour as #rrggbb' },
    ),
    BRAND_FONT: optionalSetting(
      {
        group: 'production',
        default: 'system fonts',
        description: 'a CSS font-family list of fonts the devices have',
      },
      // The value goes into a style, so nothing that could end it.
      {
        test: (font) => fontList.test(font),
        expected: 'a CSS font-family list (letters, digits, spaces, commas, quotes)',
      },
    ),
    BRAND_LOGO_FILE: optionalSetting(
      {
        group: 'production',
        default: 'none',
        description: 'a PNG, SVG, JPEG or WebP logo, served at `/api/brand/logo`',
      },
      { test: (file) => /\.(png|svg|jpe?g|webp)$/i.test(file), expected: 'a .png, .svg, .jpg or .webp file' },
    ),
    FLOWS_DIR: textSetting('src/service/verification/flows', {
      group: 'production',
      description: 'flow definitions served to the SPA (the hosted API has no route that lists flows)',
    }),
    RATE_LIMIT_MAX: wholeSetting(3000, {
      group: 'tuning',
      description: 'requests per client IP and window on `/api/*` (429 beyond), per instance',
    }),
    RATE_LIMIT_WINDOW_MS: wholeSetting(60_000, { group: 'tuning', description: 'that window' }),
    STAFF_LOGIN_MAX_PER_MINUTE: wholeSetting(5, {
      group: 'tuning',
      description: 'staff login attempts per IP and minute (a successful login resets the count)',
    }),
    SLOW_BODY_MIN_BYTES_PER_SECOND: wholeSetting(4096, {
      group: 'tuning',
      description: 'an anonymous write whose body is slower on average has its connection closed',
    }),
    SLOW_BODY_GRACE_MS: wholeSetting(10_000, {
      group: 'tuning',
      description: 'time before that average rate is required',
    }),
    BODIES_PER_ADDRESS: wholeSetting(16, {
      group: 'tuning',
      description: 'anonymous writes under way at once per client address; beyond it 429 at once',
    }),
    SEND_INPUT_TIMEOUT_MS: wholeSetting(120_000, {
      group: 'tuning',
      description: 'time the service has to answer a send-input; then 504 `upstream.timeout`',
    }),
    WEBHOOK_MAX_AGE_SECONDS: wholeSetting(3600, {
      group: 'tuning',
      description:
        "a verification webhook whose signed `timestamp` is older is refused (longer than the sender's retries; see below)",
    }),
    RECONCILE_SECONDS: decimalSetting(300, {
      group: 'tuning',
      description:
        'period of the catch-up of unfinished verifications, also run at start (see below); 0: off',
    }),
    SSE_HEARTBEAT_MS: wholeSetting(15_000, {
      group: 'tuning',
      description: 'heartbeat of the staff event stream',
    }),
    CREDIT_CHECK_SEGMENT: textSetting(
      'credit-bureau',
      { group: 'tests', description: "last path segment of the service's credit-check routes" },
      { test: (value) => /^[A-Za-z0-9_-]{1,100}$/.test(value), expected: 'a path segment' },
    ),
  })
  .superRefine((values, ctx) => {
    // The development secrets are printed in this repository: a BFF others can reach must not
    // sign webhooks or call the service with them, whatever NODE_ENV says.
    if (!isLoopbackHost(values.HOST)) {
      for (const name of devSecretNames) {
        if (values[name] === devDefaults[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is the published development value; set your own when HOST (${values.HOST}) is not a loopback address`,
          });
      }
    }
    refuseDevSecretsInProduction(values, ctx);
    if (values.NODE_ENV !== 'production') return;
    for (const name of ['STAFF_PASSWORD', 'SESSION_SECRET'] as const) {
      if (!values[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'must be set when NODE_ENV=production' });
    }
  });

/**
 * What the BFF runs on: each setting under its config key (`RATE_LIMIT_MAX` → `rateLimitMax`,
 * settings.ts `configOf`), and below what is derived or renamed.
 */
export const bffConfigSchema = bffSettings.transform((s) => {
  const staffPassword = s.STAFF_PASSWORD ?? randomBytes(9).toString('base64url');
  if (!s.STAFF_PASSWORD) console.log(`bff: generated STAFF_PASSWORD=${staffPassword}`);
  return {
    ...configOf(s, [
      'NODE_ENV',
      'SERVICE_PORT',
      'UPSTREAM_URL',
      'SERVICE_CLIENT_ID',
      'SERVICE_CLIENT_SECRET',
      'STAFF_PASSWORD',
      'SESSION_SECRET',
      'DATA_DIR',
      'STATIC_DIR',
      'PUBLIC_BFF_URL',
      'BRAND_NAME',
      'BRAND_PRIMARY_COLOR',
      'BRAND_FONT',
      'BRAND_LOGO_FILE',
      'WEBHOOK_MAX_AGE_SECONDS',
      'RECONCILE_SECONDS',
      'FLOWS_DIR',
    ]),
    /** The verification service; its origin is the only one the BFF sends the token to. */
    upstreamUrl: (s.UPSTREAM_URL ?? `http://${s.HOST}:${s.SERVICE_PORT}`).replace(/\/+$/, ''),
    clientId: s.SERVICE_CLIENT_ID,
    clientSecret: s.SERVICE_CLIENT_SECRET,
    staffPassword,
    /** Key of the signed session cookies: a per-start secret only logs everybody out on restart, fine in development. */
    sessionSecret: s.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    dataDir: path.resolve(s.DATA_DIR),
    /** The built SPA; null serves the API only. */
    staticDir: s.STATIC_DIR === 'none' ? null : path.resolve(s.STATIC_DIR),
    /** This BFF's public base URL, for callback URLs; null = derived from the listening address. */
    publicUrl: s.PUBLIC_BFF_URL?.replace(/\/+$/, '') ?? (s.PORT ? `http://${s.HOST}:${s.PORT}` : null),
    /** The look of the wizard (README, Settings: BRAND_*). */
    brand: {
      name: s.BRAND_NAME.slice(0, 80),
      primaryColor: s.BRAND_PRIMARY_COLOR,
      font: s.BRAND_FONT,
      logoFile: s.BRAND_LOGO_FILE && path.resolve(s.BRAND_LOGO_FILE),
    },
    webhookMaxAgeMs: s.WEBHOOK_MAX_AGE_SECONDS * 1000,
    reconcileMs: s.RECONCILE_SECONDS * 1000,
    // The embedded service's own folder by default: the hosted API has no route that lists flows.
    flowsDir: path.resolve(s.FLOWS_DIR),
  };
});

export type BffConfig = z.infer<typeof bffConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): BffConfig {
  return parseSettings(bffConfigSchema, env);
}
