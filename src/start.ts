// `npm start`: the embedded service (unless UPSTREAM_URL points elsewhere) and the BFF, as two
// processes that talk over HTTP exactly as they would in production.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bffSettings } from './bff/config';
import { serviceSettings } from './service/config';
import { withAllocatorEnv } from './server-shared/allocator-env';
import { devDefaults } from './server-shared/dev-defaults';
import { loadSettingsOrExit, parseSettings } from './server-shared/settings';

const env = { ...process.env };
// A refused setting stops here, in one line, before either process starts.
loadSettingsOrExit(() => {
  if (!env.UPSTREAM_URL) parseSettings(serviceSettings, env);
  parseSettings(bffSettings, env);
});
env.PORT ??= String(devDefaults.PORT);
env.SERVICE_PORT ??= String(devDefaults.SERVICE_PORT);
env.HOST ??= devDefaults.HOST;
env.DATA_DIR ??= devDefaults.DATA_DIR;
const printed: string[] = [];
for (const name of ['SERVICE_CLIENT_ID', 'SERVICE_CLIENT_SECRET', 'WEBHOOK_SECRET'] as const) {
  if (!env[name]) {
    env[name] = devDefaults[name];
    printed.push(`${name}=${env[name]}`);
  }
}
if (!env.STAFF_PASSWORD) {
  env.STAFF_PASSWORD = randomBytes(9).toString('base64url');
  printed.push(`STAFF_PASSWORD=${env.STAFF_PASSWORD}`);
}
const embedded = !env.UPSTREAM_URL;
env.UPSTREAM_URL ??= `http://${env.HOST}:${env.SERVICE_PORT}`;
env.SERVICE_WEBHOOK_URL ??= `http://${env.HOST}:${env.PORT}/webhooks/verification`;
// The embedded service calls back only the BFF it was started with: its listening address (the
// webhook URL above) and, for credit-check callbacks, its public URL when one is set.
if (embedded && env.PUBLIC_BFF_URL) {
  const origin = new URL(env.PUBLIC_BFF_URL).origin;
  env.OUTBOUND_ALLOWED = [env.OUTBOUND_ALLOWED, origin].filter(Boolean).join(',');
}

// Built (`npm start`: dist-server/start.js), the servers are the bundles beside this one; from the
// TypeScript sources they run through tsx.
const built = import.meta.url.endsWith('.js');
const entries = built
  ? {
      service: fileURLToPath(new URL('./service.js', import.meta.url)),
      bff: fileURLToPath(new URL('./bff.js', import.meta.url)),
    }
  : { service: 'src/service/main.ts', bff: 'src/bff/main.ts' };
const nodeOptions = built ? ['--enable-source-maps'] : ['--import', 'tsx'];

const children: ChildProcess[] = [];
const start = (name: keyof typeof entries) => {
  const child = spawn(process.execPath, [...nodeOptions, entries[name]], {
    env: withAllocatorEnv(env),
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${signal ?? code}); stopping`);
      stop(code ?? 1);
    }
  });
  children.push(child);
};

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.on('exit', r))))).then(
    () => process.exit(code),
  );
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());

if (embedded) start('service');
start('bff');
if (printed.length) console.log(`development settings (set them to override):\n  ${printed.join('\n  ')}`);
console.log(`IDV Capture: http://${env.HOST}:${env.PORT}/  (staff console: /console)`);
