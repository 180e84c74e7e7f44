import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import './route-rules';

/** What a server tells the guard once a request proved who sent it (a webhook's valid signature). */
export interface OpenRouteGuard {
  /**
   * Later requests from the address of `request` to the same pool get slots of their own (for
   * `trustMs`), apart from anonymous ones.
   */
  trust(request: FastifyRequest): void;
}

interface Pool {
  inFlight: number;
  trustedInFlight: number;
  byAddress: Map<string, number>;
}

/**
 * Routes anyone may call without a session or a token (webhooks, staff sign-in, health) cannot
 * be held open by slow clients: each request's body must arrive within `bodyTimeoutMs` of its
 * headers (the socket is closed otherwise), and at most `maxConcurrent` of them are under way at
 * once (beyond that: 503 at once, connection closed). The server's `headersTimeout` bounds the
 * headers of every request.
 *
 * The slots are counted per pool (a route's `config.open` names its own, `true` is the shared
 * one), so that traffic on one route cannot refuse another; with `perAddress`, one client address
 * holds at most that many of a pool's slots. An address the server `trust`ed (it sent a request
 * that proved itself, such as a validly signed webhook) has `maxConcurrent` slots per pool of its
 * own for `trustMs` after, so that however many addresses fill the anonymous slots its requests
 * still get in.
 */
export function guardOpenRoutes(
  app: FastifyInstance,
  options: {
    bodyTimeoutMs: number;
    maxConcurrent: number;
    busy: () => Error;
    perAddress?: number;
    trustMs?: number;
    addressOf?: (request: FastifyRequest) => string;
  },
): OpenRouteGuard {
  const pools = new Map<string, Pool>();
  const trusted = new Map<string, number>();
  const addressOf = options.addressOf ?? ((request: FastifyRequest) => request.ip);
  const perAddress = options.perAddress ?? options.maxConcurrent;
  const poolOf = (request: FastifyRequest) => {
    const name = request.routeOptions.config.open;
    return typeof name === 'string' ? name : '';
  };
  const isTrusted = (key: string) => {
    const until = trusted.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    trusted.delete(key);
    return false;
  };
  const guard: onRequestHookHandler = (request, reply, done) => {
    const poolName = poolOf(request);
    let pool = pools.get(poolName);
    if (!pool) {
      pool = { inFlight: 0, trustedInFlight: 0, byAddress: new Map() };
      pools.set(poolName, pool);
    }
    const address = addressOf(request);
    const ofAddress = pool.byAddress.get(address) ?? 0;
    const asTrusted = isTrusted(`${poolName} ${address}`);
    const full = asTrusted
      ? pool.trustedInFlight >= options.maxConcurrent
      : pool.inFlight >= options.maxConcurrent || ofAddress >= perAddress;
    if (full) {
      void reply.header('connection', 'close');
      return done(options.busy());
    }
    const held = pool;
    if (asTrusted) held.trustedInFlight++;
    else {
      held.inFlight++;
      held.byAddress.set(address, ofAddress + 1);
    }
    const timer = setTimeout(() => {
      if (!request.raw.complete) request.raw.socket?.destroy();
    }, options.bodyTimeoutMs);
    reply.raw.once('close', () => {
      clearTimeout(timer);
      if (asTrusted) {
        held.trustedInFlight--;
        return;
      }
      held.inFlight--;
      const left = (held.byAddress.get(address) ?? 1) - 1;
      if (left > 0) held.byAddress.set(address, left);
      else held.byAddress.delete(address);
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
  return {
    trust(request) {
      trusted.set(`${poolOf(request)} ${addressOf(request)}`, Date.now() + (options.trustMs ?? 10 * 60_000));
    },
  };
}
