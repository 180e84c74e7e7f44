import type { FastifyInstance } from 'fastify';

/**
 * Routes anyone may call without a session or a token (webhooks, staff sign-in, health) cannot
 * be held open by slow clients: each request's body must arrive within `bodyTimeoutMs` of its
 * headers (the socket is closed otherwise), and at most `maxConcurrent` of them are under way at
 * once (beyond that: 503 at once, connection closed). The server's `headersTimeout` bounds the
 * headers of every request.
 */
export function guardOpenRoutes(
  app: FastifyInstance,
  options: {
    isOpen: (routeUrl: string | undefined) => boolean;
    bodyTimeoutMs: number;
    maxConcurrent: number;
    busy: () => Error;
  },
) {
  let inFlight = 0;
  app.addHook('onRequest', (request, reply, done) => {
    if (!options.isOpen(request.routeOptions.url)) return done();
    if (inFlight >= options.maxConcurrent) {
      void reply.header('connection', 'close');
      return done(options.busy());
    }
    inFlight++;
    const timer = setTimeout(() => {
      if (!request.raw.complete) request.raw.socket?.destroy();
    }, options.bodyTimeoutMs);
    reply.raw.once('close', () => {
      inFlight--;
      clearTimeout(timer);
    });
    done();
  });
}
