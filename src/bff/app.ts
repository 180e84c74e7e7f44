import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { openApiDocument } from '@/server-shared/openapi';
import { listeningUrl, useZodContracts } from '@/server-shared/route-contracts';
import type { BffConfig } from './config';
import type { BffDeps } from './deps';
import { BffHttpError, installErrorHandler } from './errors';
import { installReplyCompression } from './http/compress-replies';
import { EventHub } from './domain/event-hub';
import { LoginLimiter } from './http/login-limiter';
import { Reconciler } from './domain/reconcile';
import { RetentionSweep } from './domain/retention';
import { guardOpenRoutes } from '@/server-shared/open-route-guard';
import { guardSlowBodies } from '@/server-shared/slow-body-guard';
import { rulePath } from '@/server-shared/rule-path';
import { securityHeaders } from './http/security-headers';
import { VerificationSync } from './domain/verification-sync';
import { brandOf, brandRoutes } from './routes/brand';
import { handoffRoutes } from './routes/handoffs';
import { flowRoutes, loadFlowConfig } from './routes/flows';
import { healthRoutes } from './routes/health';
import { identityRoutes } from './routes/identities';
import { spaRoutes } from './routes/spa';
import { staffCreditCheckRoutes } from './routes/staff-credit-checks';
import { staffEventRoutes } from './routes/staff-events';
import { staffMediaRoutes } from './routes/staff-media';
import { requireStaff, staffSessionRoutes } from './routes/staff-session';
import { staffVerificationRoutes } from './routes/staff-verifications';
import { verificationRoutes } from './routes/verifications';
import { webhookRoutes } from './routes/webhooks';
import { PgEventBus } from './store/pg-event-bus';
import { SqlStore } from './store/sql-store';
import type { BffStore } from './store/store';
import { UpstreamClient } from './upstream/upstream-client';

export interface BuildOptions {
  /** Another store; default PostgreSQL with DATABASE_URL, else DATA_DIR/bff.sqlite. */
  store?: BffStore;
  /** false silences the log (tests). */
  logger?: boolean;
  /** Another service client (a test's, whose token it can revoke); default one on UPSTREAM_URL. */
  upstream?: UpstreamClient;
}

export const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    // wasm-unsafe-eval lets the barcode/PDF readers compile WebAssembly; it does not allow eval().
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'blob:', 'data:'],
    mediaSrc: ["'self'", 'blob:'],
    connectSrc: ["'self'"],
    // blob: for heic-to (HEIC photos converted in the browser): it starts libheif's worker from a
    // blob. The other workers (photo, pdf.js, tesseract) are files of the app.
    workerSrc: ["'self'", 'blob:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

const requestIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the BFF (routes, hooks, plugins); the caller listens (main.ts) or tests it. */
/** Whether a request's Origin is this BFF: its Host (as the browser addressed it) or PUBLIC_BFF_URL. */
function sameOrigin(origin: string, host: string, publicOrigin: string | null) {
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export async function buildBffApp(config: BffConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers.cookie',
                'req.headers["x-signature"]',
                'res.headers["set-cookie"]',
              ],
              censor: '[redacted]',
            },
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    // A hop count as Fastify's function form (its types take no number): trust the n nearest hops.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Phones on slow networks take a while to send a few photos and a video.
    requestTimeout: 15 * 60_000,
    return503OnClosing: true,
    // One line per request (below), without query strings, bodies or headers.
    logController: new LogController({ disableRequestLogging: true }),
  });

  const store =
    options.store ??
    (config.databaseUrl ? await SqlStore.postgres(config.databaseUrl) : SqlStore.inDataDir(config.dataDir));
  const upstream = options.upstream ?? new UpstreamClient(config);
  // On PostgreSQL the staff events go round LISTEN/NOTIFY, so that every instance's consoles get them.
  const hub = new EventHub(
    store instanceof SqlStore && store.postgres
      ? new PgEventBus(store.postgres.pool, store.postgres.connectionString, app.log)
      : null,
  );
  await hub.start();
  const sync = new VerificationSync(store, upstream, hub, app.log);
  const openRoutes = guardOpenRoutes(app, {
    bodyTimeoutMs: config.openBodyTimeoutMs,
    maxConcurrent: config.openMaxConcurrent,
    // One client address holds a quarter of a pool's slots at most; the service's webhooks, once
    // one of them was signed right, have slots of their own.
    perAddress: Math.max(1, Math.floor(config.openMaxConcurrent / 4)),
    busy: () =>
      new BffHttpError(503, {
        code: 'server.busy',
        type: 'SystemError',
        message: 'Too many requests under way.',
      }),
  });
  const deps: BffDeps = {
    config,
    store,
    upstream,
    hub,
    sync,
    loginLimiter: new LoginLimiter(store, config.staffLoginMaxPerMinute),
    flows: loadFlowConfig(config.flowsDir),
    brand: brandOf(config, app.log),
    publicUrl: () => config.publicUrl || listeningUrl(app, config),
    openRoutes,
  };

  installErrorHandler(app);
  installReplyCompression(app);
  app.server.headersTimeout = config.headersTimeoutMs;
  // Creation, send-input and the other capture writes need no sign-in: a body trickled at a byte a
  // second must not hold a connection for the request timeout, nor one address hold many.
  guardSlowBodies(app, {
    applies: (method, url) =>
      (method === 'POST' || method === 'PUT' || method === 'PATCH') &&
      url.startsWith('/api/') &&
      !url.startsWith('/api/staff/'),
    graceMs: config.slowBodyGraceMs,
    minBytesPerSecond: config.slowBodyMinBytesPerSecond,
    maxPerAddress: config.bodiesPerAddress,
    busy: () =>
      new BffHttpError(429, {
        code: 'rate.limited',
        type: 'ValidationError',
        message: 'Too many uploads under way from this address; wait for them to finish.',
      }),
  });
  const contracts = useZodContracts(app);
  app.get('/api/openapi.json', async () =>
    openApiDocument({ title: 'IDV Capture BFF (browser API)', version: '1' }, contracts),
  );
  // Hooks in callback form: an async hook costs a promise and a turn of the microtask queue on
  // every request, for work that never waits.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
  const reconciler = new Reconciler(store, sync, app.log, config.reconcileMs);
  const retention = new RetentionSweep(store, app.log, config.retentionDays, (id) => sync.erase(id));
  app.addHook('onReady', async () => {
    await sync.resume();
    reconciler.start();
    retention.start();
  });
  app.addHook('onClose', async () => {
    await reconciler.stop();
    await retention.stop();
    await sync.idle();
    await upstream.close();
    await hub.close();
    await store.close();
  });

  const headers = securityHeaders({
    contentSecurityPolicy,
    crossOriginEmbedderPolicy: false,
    // Hashed assets and media are same-origin; nothing is meant for other sites.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  // HSTS only means something over https (browsers ignore it on http, and a plain-http
  // deployment behind no proxy must not claim it).
  const { 'strict-transport-security': hsts, ...plainHeaders } = headers;
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(request.protocol === 'https' && hsts ? headers : plainHeaders);
    // Staff answers carry personal data: never kept by the browser or a shared cache.
    if (rulePath(request).startsWith('/api/staff/')) void reply.header('cache-control', 'no-store');
    done();
  });
  // Staff writes come from the console's own pages. SameSite=Strict keeps the staff cookie off
  // other sites' requests, but it is then the only guard: a browser's Origin (or Sec-Fetch-Site)
  // naming another site is refused too. A client sending neither is no browser a page could drive.
  const publicOrigin = config.publicUrl ? new URL(config.publicUrl).origin : null;
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return done();
    if (!rulePath(request).startsWith('/api/staff/')) return done();
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const crossSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (crossSite || (origin !== undefined && !sameOrigin(origin, request.host, publicOrigin))) {
      return done(
        new BffHttpError(403, {
          code: 'staff.crossOrigin',
          type: 'AuthError',
          message: 'Staff changes are made from the console itself.',
        }),
      );
    }
    done();
  });
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  await app.register(fastifyRateLimit, {
    global: true,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    // The browser API's routes count; a route of it that must not says so itself (`rateLimit:
    // false` in its config: webhooks, health, the staff event stream). The SPA's files do not count.
    allowList: (request) => !rulePath(request).startsWith('/api/'),
    errorResponseBuilder: () =>
      new BffHttpError(429, {
        code: 'rate.limited',
        type: 'ValidationError',
        message: 'Too many requests; slow down.',
      }),
  });

  healthRoutes(app, deps);
  brandRoutes(app, deps);
  handoffRoutes(app, deps);
  flowRoutes(app, deps);
  verificationRoutes(app, deps);
  identityRoutes(app, deps);
  webhookRoutes(app, deps);
  staffSessionRoutes(app, deps);
  await app.register(async (staff) => {
    staff.addHook('onRequest', async (request) => {
      await requireStaff(request, deps);
    });
    staffVerificationRoutes(staff, deps);
    staffMediaRoutes(staff, deps);
    staffCreditCheckRoutes(staff, deps);
    staffEventRoutes(staff, deps);
  });
  await spaRoutes(app, deps);
  return app;
}
