import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Every process refuses to start on a setting it cannot read, with one line naming it (no stack
// trace): `Number(" ")` is 0 (RETENTION_DAYS: keep forever), `Number("0x10")` 16. `npm start`
// (src/start.ts) checks both processes' settings before it starts either.
describe('a process started with a setting it refuses', () => {
  for (const [entry, env, line] of [
    [
      'src/service/main.ts',
      { RETENTION_DAYS: ' ' },
      'Invalid setting RETENTION_DAYS: expected a decimal number ≥ 0, got " "',
    ],
    [
      'src/bff/main.ts',
      { RETENTION_DAYS: '0x10' },
      'Invalid setting RETENTION_DAYS: expected a decimal number ≥ 0, got "0x10"',
    ],
    [
      'src/bff/main.ts',
      { RATE_LIMIT_MAX: '1e9' },
      'Invalid setting RATE_LIMIT_MAX: expected a whole number ≥ 0, got "1e9"',
    ],
    [
      // Issue 34, item 4: the published development secrets on an address others reach, NODE_ENV=test.
      'src/bff/main.ts',
      { HOST: '0.0.0.0' },
      'Invalid setting SERVICE_CLIENT_ID: is the published development value; set your own when HOST (0.0.0.0) is not a loopback address',
    ],
    [
      'src/start.ts',
      { RETENTION_DAYS: '5', RETENTION_EXPIRED_DAYS: '30' },
      'Invalid setting RETENTION_EXPIRED_DAYS: expected at most RETENTION_DAYS (5), got "30"',
    ],
    [
      'src/start.ts',
      { NODE_ENV: 'production', SERVICE_CLIENT_ID: 'a', SERVICE_CLIENT_SECRET: 'b', WEBHOOK_SECRET: 'c' },
      'Invalid setting STAFF_PASSWORD: must be set when NODE_ENV=production',
    ],
  ] as const) {
    it(`${entry} refuses ${JSON.stringify(env)}`, () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          SERVICE_PORT: '0',
          PORT: '0',
          STATIC_DIR: 'none',
          ...env,
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr.trim()).toBe(line);
      expect(run.status).toBe(1);
    }, 70_000);
  }
});
