import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { BffDeps } from '../deps';
import { notFound } from '../errors';

const isApiPath = (url: string) => /^\/(api|webhooks)(\/|$|\?)/.test(url);

/** The SPA's own routes (src/app/app.tsx); any other address gets the SPA's "not found" page with a 404. */
const spaRoute = /^\/(?:verify\/[^/]+|handoff\/[^/]+|console(?:\/.*)?)?\/?$/;
export const isSpaRoute = (url: string) => spaRoute.test(url.split('?')[0]);

/** The built SPA from STATIC_DIR, with index.html for every client-side route. */
export async function spaRoutes(app: FastifyInstance, { config }: BffDeps) {
  const root = config.staticDir;
  const hasSpa = !!root && existsSync(path.join(root, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root,
      index: ['index.html'],
      // The build writes .br and .gz beside each file (src/build/precompress.ts); the one the
      // browser accepts is sent as it is, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (reply, file) => {
        // Vite's hashed assets never change; index.html must be fetched fresh to find them.
        if (file.includes(`${path.sep}assets${path.sep}`))
          void reply.header('cache-control', 'public, max-age=31536000, immutable');
        else void reply.header('cache-control', 'no-cache');
      },
    });
  } else if (root) {
    app.log.warn({ staticDir: root }, 'no built SPA found; serving the API only (run `npm run build`)');
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (hasSpa && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url)) {
      void reply.header('cache-control', 'no-cache');
      if (!isSpaRoute(request.url)) void reply.code(404);
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    throw notFound(`No route ${request.method} ${request.url.split('?')[0]}.`);
  });
}
