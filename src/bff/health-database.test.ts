import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bffPaths } from '@/shared/contract/bff-paths';
import { dropSchema, freshSchemaUrl } from '../../e2e/fixtures/test-database';
import { freePort } from '../../e2e/fixtures/free-port';
import { eventually, startStack, type Stack } from './testing/harness';

// Issue 34, item 6: /api/health says 503 while PostgreSQL refuses connections, 200 once it is back.
// The BFF reaches PostgreSQL through a TCP relay of this test's: closed, connections are refused.
const { url: schemaUrl, schema } = freshSchemaUrl('idv_health');
const database = new URL(schemaUrl);

/** A relay from a port of ours to PostgreSQL's; `stop` closes it and every connection through it. */
function relay(port: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(database.port || 5432), database.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return {
    start: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

let stack: Stack;
let link: ReturnType<typeof relay>;
beforeAll(async () => {
  const port = await freePort();
  link = relay(port);
  await link.start();
  const relayed = new URL(schemaUrl);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(port);
  stack = await startStack({ bffEnv: { DATABASE_URL: relayed.toString(), RECONCILE_SECONDS: '0' } });
}, 120_000);
afterAll(async () => {
  await link?.stop();
  await stack?.stop();
  await dropSchema(schema);
});

const health = async () => {
  const response = await fetch(stack.bffUrl + bffPaths.health);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('the health probe on PostgreSQL', () => {
  it('answers 503 while PostgreSQL refuses connections, 200 again once it accepts them', async () => {
    expect((await health()).status).toBe(200);
    await link.stop();
    const refused = await health();
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ ok: false, upstream: 'ok', store: 'unavailable' });
    await link.start();
    // The pool opens new connections on demand.
    const back = await eventually(async () => {
      const answer = await health();
      return answer.status === 200 ? answer.body : undefined;
    });
    expect(back).toEqual({ ok: true, upstream: 'ok', store: 'ok' });
  }, 60_000);
});
