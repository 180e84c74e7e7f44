import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { BffDeps } from '../deps';

/**
 * Server-sent events for the console: `event: verification` / `event: credit-check` with a
 * staffStreamEventSchema JSON, and comment heartbeats that keep proxies from closing the stream.
 */
export function staffEventRoutes(app: FastifyInstance, { hub, config }: BffDeps) {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/api/staff/events', (request, reply) => {
    const res = reply.raw;
    reply.hijack();
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n: connected\n\n');
    open.add(res);
    const unsubscribe = hub.subscribe((event) => {
      res.write(`event: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), config.sseHeartbeatMs);
    request.raw.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
  });
}
