import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import type { ServiceConfig } from '../config';
import { unauthorized } from '../verification/service-error';

/**
 * The keys tokens are checked with, the signing one first: TOKEN_SIGNING_KEYS, or one derived from
 * the client secret. Either way the client secret goes into them, so that changing it revokes every
 * token; every instance with the same settings signs and accepts the same tokens (no state).
 */
const signingKeys = (config: ServiceConfig) =>
  config.tokenSigningKeys.length
    ? config.tokenSigningKeys.map(
        (key) =>
          new Uint8Array(
            createHmac('sha256', key).update(`idv-service-access-token:${config.clientSecret}`).digest(),
          ),
      )
    : [new Uint8Array(createHmac('sha256', config.clientSecret).update('idv-service-access-token').digest())];

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function checkClientCredentials(config: ServiceConfig, header: string | undefined) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) throw unauthorized('client credentials required (HTTP Basic)', 'invalid_client');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const id = colon < 0 ? decoded : decoded.slice(0, colon);
  const secret = colon < 0 ? '' : decoded.slice(colon + 1);
  // Both compared, always, so that timing does not tell which one was wrong.
  const ok = sameText(id, config.clientId) && sameText(secret, config.clientSecret);
  if (!ok) throw unauthorized('invalid client credentials', 'invalid_client');
}

export async function issueToken(config: ServiceConfig) {
  const accessToken = await new SignJWT({ scope: 'verifications' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(config.clientId)
    .setIssuer('idv-embedded-service')
    .setIssuedAt()
    .setExpirationTime(`${config.tokenTtlSeconds}s`)
    .sign(signingKeys(config)[0]);
  // Clients of the hosted API read the account user's id from payload.user._id.
  const userId = createHmac('sha256', 'idv-service-user').update(config.clientId).digest('hex').slice(0, 24);
  return {
    access_token: accessToken,
    expiresIn: config.tokenTtlSeconds,
    payload: { user: { _id: userId, firstName: 'API', lastName: 'Client' } },
  };
}

export async function requireBearer(config: ServiceConfig, request: FastifyRequest) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) throw unauthorized('a bearer token is required');
  let lifetime: number | null = null;
  for (const key of signingKeys(config)) {
    try {
      const { payload } = await jwtVerify(match[1], key, {
        algorithms: ['HS256'],
        issuer: 'idv-embedded-service',
        subject: config.clientId,
        // A token that never expires is not one this service issues, nor one issued in the future
        // or longer ago than a token lives.
        requiredClaims: ['exp', 'iat'],
        // The instances issue and check tokens on synchronised clocks: no tolerance.
        maxTokenAge: config.tokenTtlSeconds,
      });
      lifetime = payload.exp! - payload.iat!;
      break;
    } catch {
      // Another key may have signed it (a rotation under way).
    }
  }
  if (lifetime === null) throw unauthorized('invalid or expired token');
  // Signed with the right key but meant to live longer than TOKEN_TTL_SECONDS (exp 1e15, say):
  // not one of this service's tokens.
  if (lifetime > config.tokenTtlSeconds) throw unauthorized('invalid or expired token');
}
