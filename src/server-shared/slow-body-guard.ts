import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * Routes anyone may send a body to (a capture's creation and send-input: no sign-in, and a body
 * of up to hundreds of MB) cannot be held open by a client trickling it: once `graceMs` have
 * passed, a body still arriving slower on average than `minBytesPerSecond` has its connection
 * closed, and one address has at most `maxPerAddress` such requests under way (beyond: `busy()`
 * at once, connection closed). Bytes are read off the socket's own count, so the body stream is
 * left to the route.
 */
export function guardSlowBodies(
  app: FastifyInstance,
  options: {
    /** Whether a route (method and URL pattern) is guarded; asked once per route, when it is declared. */
    applies: (method: string, routeUrl: string) => boolean;
    graceMs: number;
    minBytesPerSecond: number;
    maxPerAddress: number;
    busy: () => Error;
    addressOf?: (request: FastifyRequest) => string;
  },
) {
  const underWay = new Map<string, number>();
  const addressOf = options.addressOf ?? ((request: FastifyRequest) => request.ip);
  const guard: onRequestHookHandler = (request, reply, done) => {
    const address = addressOf(request);
    const count = underWay.get(address) ?? 0;
    if (count >= options.maxPerAddress) {
      void reply.header('connection', 'close');
      return done(options.busy());
    }
    underWay.set(address, count + 1);
    const socket = request.raw.socket;
    const startBytes = socket.bytesRead;
    const started = Date.now();
    let watch: NodeJS.Timeout | undefined;
    // Watched until the body is in, also after an early answer (the rest of a refused body is
    // still read and dropped: drain-body.ts), or until the connection is gone.
    const stop = () => {
      clearTimeout(grace);
      clearInterval(watch);
      socket.off('close', stop);
    };
    const grace = setTimeout(() => {
      watch = setInterval(() => {
        if (request.raw.complete || socket.destroyed) return stop();
        const seconds = (Date.now() - started) / 1000;
        if (socket.bytesRead - startBytes < options.minBytesPerSecond * seconds) {
          stop();
          socket.destroy();
        }
      }, 1000);
    }, options.graceMs);
    socket.once('close', stop);
    reply.raw.once('close', () => {
      if (request.raw.complete) stop();
      const left = (underWay.get(address) ?? 1) - 1;
      if (left > 0) underWay.set(address, left);
      else underWay.delete(address);
    });
    done();
  };
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((method) => options.applies(method, route.url))) return;
    const hooks = [route.onRequest ?? []].flat();
    if (!hooks.includes(guard)) route.onRequest = [guard, ...hooks];
  });
}
