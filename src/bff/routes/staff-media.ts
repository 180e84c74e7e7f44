import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BffDeps } from '../deps';
import { notFound } from '../errors';
import { envelopeOf } from '../upstream/upstream-client';

const mediaParams = z.object({ mediaId: z.string().regex(/^[A-Za-z0-9._~-]{1,200}$/) });

/** Verification media, streamed from the service with the bearer token the browser never sees. */
export function staffMediaRoutes(app: FastifyInstance, { store, upstream, config }: BffDeps) {
  app.get('/api/staff/media/:mediaId', async (request, reply) => {
    const { mediaId } = mediaParams.parse(request.params);
    // Only links the service itself handed out, or its own media path: never a URL from the browser.
    const url =
      (await store.mediaUrl(mediaId)) ?? `${config.upstreamUrl}/media/${encodeURIComponent(mediaId)}`;
    const res = await upstream.getUrl(url, request.id);
    if (!res) throw notFound('No such media.');
    if (res.statusCode === 404) {
      await res.body.dump();
      throw notFound('No such media.');
    }
    if (res.statusCode !== 200) throw await envelopeOf(res);
    for (const name of ['content-type', 'content-length', 'last-modified', 'etag'] as const) {
      const value = res.headers[name];
      if (typeof value === 'string') void reply.header(name, value);
    }
    void reply.header('cache-control', 'private, max-age=300');
    void reply.header('content-disposition', 'inline');
    return reply.send(res.body);
  });
}
