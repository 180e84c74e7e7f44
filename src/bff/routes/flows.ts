import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { flowSchema, flowSummarySchema, parseFlowFiles, type Flow, type FlowSummary } from '@/shared/flow';
import type { BffDeps } from '../deps';
import { notFound } from '../errors';

const flowParams = z.object({ flowId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });

/** The flow definitions of FLOWS_DIR, read and validated once at start. */
export function loadFlowConfig(dir: string): Map<string, Flow> {
  const names = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  return parseFlowFiles(names.map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') })));
}

/**
 * The flows the SPA walks the person through. They come from the BFF's own configuration, as the
 * hosted service has no route that lists them.
 */
export function flowRoutes(app: FastifyInstance, { flows }: BffDeps) {
  app.get('/api/flows', { schema: { response: { 200: z.array(flowSummarySchema) } } }, async () =>
    [...flows.values()].map((f): FlowSummary => {
      const names = Object.fromEntries(
        Object.entries(f.translations ?? {}).flatMap(([language, texts]) =>
          texts?.name ? [[language, texts.name]] : [],
        ),
      );
      return { id: f.id, name: f.name, ...(Object.keys(names).length ? { names } : {}) };
    }),
  );

  app.get(
    '/api/flows/:flowId',
    { schema: { params: flowParams, response: { 200: flowSchema } } },
    async (request) => {
      const flow = flows.get((request.params as z.infer<typeof flowParams>).flowId);
      if (!flow) throw notFound('No such flow.');
      return flow;
    },
  );
}
