import { configurePdfReading } from '@/checks/pdf/node/pdf-reader';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { openApiDocument } from '@/server-shared/openapi';
import { listeningUrl, useZodContracts } from '@/server-shared/route-contracts';
import { requireBearer } from './auth';
import type { ServiceConfig } from '../config';
import type { ServiceContext } from '../verification/context';
import { openServiceDb } from '../storage/db';
import { installErrorHandler } from './errors';
import { ServiceError } from '../verification/service-error';
import { guardOpenRoutes } from '@/server-shared/open-route-guard';
import { loadFlows } from '../verification/flows';
import { planFlow } from '@/shared/flow-plan';
import { Lifecycle } from '../verification/lifecycle';
import { MediaStore } from '../storage/media-store';
import { OutboundPolicy } from '../storage/outbound-url';
import { Outbox } from '../storage/outbox';
import { DeliveryQueue } from '../storage/delivery-queue';
import { PgJobs } from '../storage/pg-jobs';
import { CreditChecks } from '../verification/credit-checks';
import { SqliteJobs } from '../storage/sqlite-jobs';
import { RetentionSweep } from '../verification/retention';
import { VerificationRepo } from '../storage/verification-repo';
import { creditCheckRoutes } from './routes/credit-checks';
import { flowRoutes } from './routes/flows';
import { healthRoutes } from './routes/health';
import { identityRoutes } from './routes/identities';
import { mediaRoutes } from './routes/media';
import { oauthRoutes } from './routes/oauth';
import { verificationRoutes } from './routes/verifications';
import { webhookRoutes } from './routes/webhooks';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * The embedded verification service as a Fastify instance; it never listens (main.ts does).
 * Jobs and pending webhook deliveries resume when the instance is ready, and stop on close.
 */
/** How often an instance on PostgreSQL looks for deliveries no event of its own woke it for. */
const OUTBOX_SWEEP_MS = 5000;

export function buildServiceApp(config: ServiceConfig, options: BuildOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 64 * 1024,
    // The BFF passes on the person's address in X-Forwarded-For; nobody else is believed.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // A send-input of 16 files of 50 MB from a slow phone takes long, but not forever.
    requestTimeout: 15 * 60 * 1000,
    // On close, idle keep-alive connections go at once; requests under way are finished.
    forceCloseConnections: 'idle',
    // The hosted service answers with or without a trailing slash; its clients use both.
    routerOptions: { ignoreTrailingSlash: true },
  });
  const contracts = useZodContracts(app);
  configurePdfReading(config.pdfReading);
  const db = openServiceDb(config);
  // With DATABASE_URL media are chunks in PostgreSQL, which every instance reads.
  const media = new MediaStore(config.dataDir, db.name === 'postgres' ? { chunks: db.db } : {});
  media.clearTmp();
  const repo = new VerificationRepo(db);
  const flows = loadFlows();
  const outbound = new OutboundPolicy(config.outboundAllowed);
  const outbox = new Outbox(new DeliveryQueue(db.db), {
    policy: outbound,
    secret: config.webhookSecret,
    retrySeconds: config.webhookRetrySeconds,
    timeoutMs: config.webhookTimeoutMs,
    log: app.log,
    alone: (key, fn) => db.tryExclusive(key, fn),
  });
  const ctx: ServiceContext = {
    config,
    db,
    repo,
    flows,
    plans: new Map([...flows].map(([id, flow]) => [id, planFlow(flow)])),
    media,
    outbox,
    outbound,
    jobs: config.databaseUrl ? new PgJobs(config.databaseUrl, app.log) : new SqliteJobs(db.db, app.log),
    log: app.log,
    baseUrl: () => config.publicUrl || listeningUrl(app, config),
  };
  const lifecycle = new Lifecycle(ctx);
  const creditChecks = new CreditChecks(ctx);

  installErrorHandler(app, media);
  app.server.headersTimeout = config.headersTimeoutMs;
  guardOpenRoutes(app, {
    bodyTimeoutMs: config.openBodyTimeoutMs,
    maxConcurrent: config.openMaxConcurrent,
    busy: () =>
      new ServiceError(503, {
        code: 503,
        type: 'SystemError',
        name: 'busy',
        message: 'too many requests under way',
      }),
  });
  void app.register(multipart, { throwFileSizeLimit: false });
  void app.register(oauthRoutes, { ctx });
  void app.register(healthRoutes, { ctx });
  // The OpenAPI document of the routes this instance serves, from the same schemas they run.
  app.get('/openapi.json', async () =>
    openApiDocument(
      { title: 'IDV verification service (embedded)', version: '2' },
      contracts.filter((c) => c.url !== '/openapi.json'),
      { bearer: true },
    ),
  );
  void app.register(async (secured) => {
    secured.addHook('onRequest', async (request) => requireBearer(config, request));
    // Routes the hosted API lacks are ours; SERVICE_EXTENSIONS=off leaves only the documented ones.
    if (config.extensions) await secured.register(flowRoutes, { ctx });
    if (config.extensions) await secured.register(webhookRoutes, { ctx });
    await secured.register(verificationRoutes, { ctx, lifecycle });
    await secured.register(identityRoutes, { ctx, lifecycle });
    await secured.register(mediaRoutes, { ctx });
    await secured.register(creditCheckRoutes, { ctx, creditChecks });
  });

  // Requests under way when the service stops may finish, but their keep-alive connections must
  // not then hold the stop for keepAliveTimeout: they close as soon as they fall idle.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50).unref();
    app.server.once('close', () => clearInterval(sweep));
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  const retention = new RetentionSweep(ctx, lifecycle);
  app.addHook('onReady', async () => {
    await db.ready();
    // Files whose transaction did or did not commit before the last stop, and orphans.
    const recovered = await media.recover((id) => repo.hasMedia(id));
    if (recovered.published || recovered.removed) app.log.info(recovered, 'media recovered at start');
    await ctx.jobs.start();
    retention.start();
    outbox.resume();
    // Another instance's events, left undelivered when it died, are found within seconds.
    if (config.databaseUrl) outbox.resumeEvery(OUTBOX_SWEEP_MS);
    await lifecycle.resume();
    await creditChecks.resume();
  });
  app.addHook('onClose', async () => {
    lifecycle.close();
    // Waits for the runs under way (the sweep, processing cut short), before the database closes.
    await ctx.jobs.close();
    await outbox.close();
    await outbound.close().catch(() => undefined);
    await db.close();
  });
  return app;
}
