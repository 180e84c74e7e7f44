import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// Both processes refuse to start on a numeric setting that is not a plain number, with one line
// naming it (no stack trace): `Number(" ")` is 0 (RETENTION_DAYS: keep forever), `Number("0x10")` 16.
describe('a process started with a nonsense number', () => {
  for (const [entry, name, value] of [
    ['src/service/main.ts', 'RETENTION_DAYS', ' '],
    ['src/bff/main.ts', 'RETENTION_DAYS', '0x10'],
    ['src/bff/main.ts', 'RATE_LIMIT_MAX', '1e9'],
  ] as const) {
    it(`${entry} refuses ${name}=${JSON.stringify(value)}`, () => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          SERVICE_PORT: '0',
          PORT: '0',
          STATIC_DIR: 'none',
          [name]: value,
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(name);
      expect(lines[0]).toContain(JSON.stringify(value));
    }, 70_000);
  }
});
