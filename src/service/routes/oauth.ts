import type { FastifyInstance } from 'fastify';
import { checkClientCredentials, issueToken } from '../auth';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';

/** POST /oauth: client credentials → access token (contract 1). */
export async function oauthRoutes(app: FastifyInstance, { ctx }: { ctx: ServiceContext }) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.post('/oauth', async (request) => {
    checkClientCredentials(ctx.config, request.headers.authorization);
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.grant_type !== 'client_credentials') {
      throw new ServiceError(400, {
        code: 400,
        name: 'unsupported_grant_type',
        message: 'grant_type must be client_credentials (form-encoded)',
      });
    }
    return issueToken(ctx.config);
  });
}
