// A load balancer for the tests across hosts: HTTP requests spread over upstream instances in
// turn, per kind of request (method and path with its ids blanked), so that consecutive requests
// of one kind (send-inputs, say) go to each instance in turn. An instance that refuses the
// connection (killed) is passed over and the request goes to the next: bodies are read whole
// first, so that one can be sent again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Routed {
  method: string;
  path: string;
  upstream: string;
  status: number;
}

const kindOf = (method: string, path: string) =>
  `${method} ${path.split('?')[0].replace(/[0-9a-f]{16,}/g, ':id')}`;

export async function startBalancer(address: string, upstreams: string[]) {
  const turns = new Map<string, number>();
  const routed: Routed[] = [];
  const down = new Set<string>();
  const forward = (upstream: string, req: http.IncomingMessage, body: Buffer) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const target = new URL(req.url ?? '/', upstream);
      const out = http.request(
        target,
        {
          method: req.method,
          headers: { ...req.headers, host: target.host, connection: 'close' },
          agent: false,
        },
        resolve,
      );
      out.on('error', reject);
      out.end(body);
    });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const kind = kindOf(req.method ?? 'GET', req.url ?? '/');
        const turn = turns.get(kind) ?? 0;
        turns.set(kind, turn + 1);
        for (let i = 0; i < upstreams.length; i++) {
          const upstream = upstreams[(turn + i) % upstreams.length];
          if (down.has(upstream)) continue;
          try {
            const answer = await forward(upstream, req, body);
            routed.push({
              method: req.method ?? 'GET',
              path: req.url ?? '/',
              upstream,
              status: answer.statusCode ?? 0,
            });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          } catch (error) {
            // Refused: the instance is gone (a request it took and dropped is not sent again).
            if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') {
              res.destroy();
              return;
            }
            down.add(upstream);
          }
        }
        res.writeHead(502).end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    url: `http://${address}:${(server.address() as AddressInfo).port}`,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
