import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { rulePath } from '@/server-shared/rule-path';
import { acceptedLanguages, fallbackLanguage, pickLanguage } from '@/shared/languages';
import type { BffDeps } from '../deps';
import { notFound } from '../errors';
import { SpaPage } from '../http/spa-page';

const isApiPath = (url: string) => /^\/(api|webhooks)(\/|$|\?)/.test(url);

/** The SPA's own routes (src/app/app.tsx); any other address gets the SPA's "not found" page with a 404. */
const spaRoute = /^\/(?:verify\/[^/]+|handoff\/[^/]+|console(?:\/.*)?)?\/?$/;
export const isSpaRoute = (url: string) => spaRoute.test(url.split('?')[0]);

/** What the wizard's first screen loads beyond the entry (the page's chunk, its strings). */
const wizardPage = 'src/features/wizard/routes/wizard-page.tsx';
const wizardStrings = (language: string) => `src/features/wizard/locales/${language}.json`;
const verifyRoute = /^\/verify\/([A-Za-z0-9_-]{1,100})\/?$/;

/** The built SPA from STATIC_DIR, with index.html for every client-side route. */
export async function spaRoutes(app: FastifyInstance, { config, flows, brand }: BffDeps) {
  const root = config.staticDir;
  const hasSpa = !!root && existsSync(path.join(root, 'index.html'));
  const page = hasSpa ? new SpaPage(root) : null;
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root,
      index: ['index.html'],
      // The build's manifest (.vite/) is the BFF's to read, not the browser's.
      allowedPath: (pathname) => !pathname.split('/').some((part) => part.startsWith('.')),
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
    if (hasSpa && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(rulePath(request))) {
      void reply.header('cache-control', 'no-cache');
      const flowId = verifyRoute.exec(request.url.split('?')[0])?.[1];
      if (page && flowId) {
        // The wizard's page names its chunks and the strings of the person's language, and
        // carries the brand and the flow: its first screen is one round trip after this page.
        const language =
          pickLanguage(acceptedLanguages(request.headers['accept-language'])) ?? fallbackLanguage;
        const flow = flows.get(flowId);
        void reply.header('vary', 'accept-language');
        return reply.type('text/html; charset=utf-8').send(
          page.render(`${flow ? flowId : ''}/${language}`, [wizardPage, wizardStrings(language)], {
            brand,
            ...(flow ? { flow } : {}),
          }),
        );
      }
      if (!isSpaRoute(request.url)) void reply.code(404);
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    throw notFound(`No route ${request.method} ${request.url.split('?')[0]}.`);
  });
}
