import { MediaStore } from '../../storage/media-store';
import type { FastifyInstance } from 'fastify';
import { mimeOf } from '@/shared/file-format';
import type { ServiceContext } from '../../verification/context';
import { notFound } from '../../verification/service-error';

/** GET /media/{mediaId}: a stored input file (service spec 4.6), bearer-protected like everything else. */
export async function mediaRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  app.get<{ Params: { mediaId: string } }>(
    '/media/:mediaId',
    { schema: { response: { 200: { contentType: 'application/octet-stream' } } } },
    async (request, reply) => {
      const { mediaId } = request.params;
      const row = MediaStore.isId(mediaId) ? await ctx.repo.media(mediaId) : undefined;
      const body = row ? await ctx.media.read(mediaId) : null;
      if (!row || !body) throw notFound('unknown media');
      return reply
        .header('content-type', mimeOf[row.format])
        .header('content-length', row.size)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
}
