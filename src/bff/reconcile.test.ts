import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBffApp } from './app';
import { loadConfig } from './config';
import hostedVerification from '@/shared/contract/fixtures/verification.json';
import { SqlStore } from './store/sql-store';
import { eventually, secrets } from './testing/harness';

// A service whose webhooks never reached this BFF: the verification finished there (the hosted
// shape of a finished verification, from the contract fixtures) while the BFF still has it pending.
const finished = hostedVerification as { id: string; identity: { status: string } };
let service: http.Server;
let app: FastifyInstance;
let store: SqlStore;
const dir = mkdtempSync(path.join(tmpdir(), 'idv-bff-reconcile-'));
beforeAll(async () => {
  service = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/oauth') {
      res.end(
        JSON.stringify({
          access_token: 't',
          expiresIn: 3600,
          payload: { user: { _id: 'u', firstName: 'A', lastName: 'B' } },
        }),
      );
    } else res.end(JSON.stringify(finished));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const config = loadConfig({
    ...secrets,
    PORT: '0',
    UPSTREAM_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
    DATA_DIR: dir,
    STATIC_DIR: 'none',
    RECONCILE_SECONDS: '3600',
  });
  store = SqlStore.inDataDir(config.dataDir);
  await store.bindVerification('session-r', {
    verificationId: finished.id,
    identity: 'i-r',
    flowId: 'global-passport',
    flowName: null,
  });
  app = await buildBffApp(config, { logger: false, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => service.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('reconciliation', () => {
  it('at start, fetches the data of verifications it knows as unfinished', async () => {
    const summary = await eventually(async () => {
      const [row] = await store.listVerifications({});
      return row?.status === 'reviewNeeded' ? row : undefined;
    }, 10_000);
    expect(summary.id).toBe(finished.id);
  });
});
