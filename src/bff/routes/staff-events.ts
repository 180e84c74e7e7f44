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

  // Long-lived: the per-address rate limit would count every console's reconnects.
  app.get('/api/staff/events', { config: { rateLimit: false } }, (request, reply) => {
    const res = reply.raw;
    reply.hijack();
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // A stream that went away between an event and its 'close' must not take the process with it.
    res.on('error', () => undefined);
    const send = (text: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(text);
    };
    send('retry: 3000\n: connected\n\n');
    open.add(res);
    const unsubscribe = hub.subscribe((event) =>
      send(`event: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`),
    );
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), config.sseHeartbeatMs);
    request.raw.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
  });
}
