import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from './testing/temp-dirs';

// main.ts as `npm run service` runs it: listens, answers, and stops cleanly on SIGTERM.
function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      SERVICE_PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('main.ts', () => {
  it('listens on HOST:SERVICE_PORT and exits 0 on SIGTERM', async () => {
    const { child, exited, output } = run({ DATA_DIR: tempDataDir(), SERVICE_WEBHOOK_URL: 'none' });
    let url: string | undefined;
    for (let i = 0; i < 300 && !url; i++) {
      url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 50));
    }
    expect(url, output()).toBeDefined();
    const response = await fetch(`${url}/v2/flows`);
    expect(response.status).toBe(401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
