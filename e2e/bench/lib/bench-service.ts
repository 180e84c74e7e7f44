import { withAllocatorEnv } from '@/server-shared/allocator-env';
import { startNode } from './node-process';

/** Client credentials of a bench's own service. */
export const benchSecrets = {
  SERVICE_CLIENT_ID: 'bench-client',
  SERVICE_CLIENT_SECRET: 'bench-client-secret',
};

/** The embedded service from its sources, as `npm start` starts it (its allocator settings included). */
export function startBenchService(port: number, dataDir: string, extra: NodeJS.ProcessEnv = {}) {
  return startNode(
    'src/service/main.ts',
    withAllocatorEnv({
      ...process.env,
      ...benchSecrets,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      SERVICE_PORT: String(port),
      DATA_DIR: dataDir,
      SERVICE_WEBHOOK_URL: 'none',
      LOG_LEVEL: 'warn',
      ...extra,
    }),
  );
}

/** The bearer header of a token for benchSecrets. */
export async function benchAuth(url: string) {
  const basic = Buffer.from(
    `${benchSecrets.SERVICE_CLIENT_ID}:${benchSecrets.SERVICE_CLIENT_SECRET}`,
  ).toString('base64');
  const oauth = await fetch(`${url}/oauth`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  return { authorization: `Bearer ${((await oauth.json()) as { access_token: string }).access_token}` };
}

/** The identity of a new verification of `flowId` at a bench's service. */
export async function benchIdentity(url: string, auth: Record<string, string>, flowId: string) {
  const created = await fetch(`${url}/v2/verifications`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ flowId }),
  });
  return ((await created.json()) as { identity: string }).identity;
}
