import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import './route-rules';

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
    bodyTimeoutMs: number;
    maxConcurrent: number;
    busy: () => Error;
  },
) {
  let inFlight = 0;
  const guard: onRequestHookHandler = (request, reply, done) => {
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
  };
  // On the open routes' own hooks (those declaring `config.open`, route-rules.ts), as they are
  // declared: every other request (a send-input, say) does not pay for a check on each call.
  app.addHook('onRoute', (route) => {
    if (!route.config?.open) return;
    const hooks = [route.onRequest ?? []].flat();
    // A GET's HEAD twin is declared from the GET's options, the guard already in them.
    if (!hooks.includes(guard)) route.onRequest = [guard, ...hooks];
  });
}
