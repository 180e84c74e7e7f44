import type { z } from 'zod';
import { devDefaults, devSecretNames } from './dev-defaults';
import {
  decimalSetting,
  logLevels,
  optionalSetting,
  portSetting,
  textSetting,
  wholeSetting,
} from './settings';

/** The settings both processes read, written once so that they mean the same in both. */
export const commonSettings = {
  NODE_ENV: optionalSetting({
    group: 'production',
    default: 'unset',
    description: '`production` refuses to start on a development secret or without the secrets it needs',
  }),
  HOST: textSetting(devDefaults.HOST, { group: 'production', description: 'listen address' }),
  PORT: portSetting(devDefaults.PORT, {
    group: 'production',
    description: "the BFF's port (the service's default `SERVICE_WEBHOOK_URL` points at it)",
  }),
  SERVICE_PORT: portSetting(devDefaults.SERVICE_PORT, {
    group: 'service',
    description: "the embedded service's port (the BFF's default `UPSTREAM_URL` points at it)",
  }),
  DATA_DIR: textSetting(devDefaults.DATA_DIR, {
    group: 'production',
    description: 'SQLite files and stored media',
  }),
  DATABASE_URL: optionalSetting({
    group: 'production',
    default: 'unset (SQLite in `DATA_DIR`)',
    description:
      "PostgreSQL: the BFF's store and the service's state, each shared by any number of instances",
  }),
  SERVICE_CLIENT_ID: textSetting(devDefaults.SERVICE_CLIENT_ID, {
    group: 'production',
    default: 'development value, printed at start',
    description: 'OAuth client id: the service accepts it, the BFF sends it',
  }),
  SERVICE_CLIENT_SECRET: textSetting(devDefaults.SERVICE_CLIENT_SECRET, {
    group: 'production',
    default: 'development value, printed at start',
    description: 'OAuth client secret of that client',
  }),
  WEBHOOK_SECRET: textSetting(devDefaults.WEBHOOK_SECRET, {
    group: 'production',
    default: 'development value, printed at start',
    description: 'HMAC key of the webhook signatures',
  }),
  RETENTION_DAYS: decimalSetting(90, {
    group: 'production',
    description: 'days personal data is kept after its last change; 0 keeps everything (see below)',
  }),
  LOG_LEVEL: textSetting(
    'info',
    { group: 'production', description: 'log level (structured JSON logs, no personal data, no tokens)' },
    { test: (level) => logLevels.includes(level), expected: `one of ${logLevels.join(', ')}` },
  ),
  HEADERS_TIMEOUT_MS: wholeSetting(10_000, {
    group: 'tuning',
    description: "time a client has to send a request's headers",
  }),
  OPEN_BODY_TIMEOUT_MS: wholeSetting(10_000, {
    group: 'tuning',
    description: 'on the routes anyone may call (see below): time from the headers to the end of the body',
  }),
  OPEN_MAX_CONCURRENT: wholeSetting(64, {
    group: 'tuning',
    description:
      'requests on those routes under way at once (BFF: per route, a quarter per client address); beyond it 503 at once',
  }),
};

type CommonValues = { [K in keyof typeof commonSettings]: z.output<(typeof commonSettings)[K]> };

/** With NODE_ENV=production neither process starts on a development secret (or none). */
export function refuseDevSecretsInProduction(
  values: Pick<CommonValues, 'NODE_ENV' | (typeof devSecretNames)[number]>,
  ctx: z.RefinementCtx,
) {
  if (values.NODE_ENV !== 'production') return;
  for (const name of devSecretNames) {
    if (values[name] === devDefaults[name])
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'must be set to a non-default value when NODE_ENV=production',
      });
  }
}
