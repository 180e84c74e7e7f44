import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/fixtures/free-port';
import { createdVerificationSchema, verificationStatusSchema } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { Browser, startStack, type Stack } from './testing/harness';

// The BFF talks to the real service through a proxy that counts (and slows down) the fetches of
// verification data, as a busy service would answer them.
const fetches = { total: 0, inFlight: 0, most: 0 };
let proxy: http.Server;
let stack: Stack;
beforeAll(async () => {
  const servicePort = await freePort();
  proxy = http.createServer((req, res) => {
    const counted = req.method === 'GET' && /^\/v2\/verifications\/[^/]+$/.test(req.url ?? '');
    const forward = () => {
      const upstream = http.request(
        { host: '127.0.0.1', port: servicePort, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!counted) return forward();
    fetches.total++;
    fetches.most = Math.max(fetches.most, ++fetches.inFlight);
    res.once('close', () => fetches.inFlight--);
    setTimeout(forward, 400);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  stack = await startStack({
    servicePort,
    bffEnv: { UPSTREAM_URL: proxyUrl },
    serviceEnv: { PUBLIC_URL: proxyUrl },
  });
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => proxy?.close(resolve));
});

describe('status polls of one verification', () => {
  it('share one fetch under way instead of queueing one fetch each', async () => {
    const browser = new Browser(stack.bffUrl);
    const created = await browser.post(bffPaths.verifications, { flowId: 'global-passport' });
    const { verificationId } = createdVerificationSchema.parse(await created.json());
    fetches.total = 0;
    fetches.most = 0;
    const polls = 20;
    const answers = await Promise.all(
      Array.from({ length: polls }, () => browser.fetch(bffPaths.status(verificationId))),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(verificationStatusSchema.parse(await answer.json())).toMatchObject({
        verificationId,
        status: 'pending',
      });
    }
    expect(fetches.most).toBe(1);
    // One fetch answers the polls that came while it ran; a late one may start one more.
    expect(fetches.total).toBeLessThanOrEqual(2);
  });
});
