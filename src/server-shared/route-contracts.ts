import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { zodSerializerCompiler, zodValidatorCompiler, type RouteContract } from '@/server-shared/openapi';

/**
 * Requests are validated and answers serialized with the shared zod schemas (src/shared/contract),
 * and the same schemas make the server's OpenAPI document: the returned list fills with the
 * contract of every route registered from now on.
 */
export function useZodContracts(app: FastifyInstance): RouteContract[] {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  const contracts: RouteContract[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.method === 'HEAD') return;
    for (const method of [route.method].flat())
      contracts.push({ method, url: route.url, ...(route.schema as Omit<RouteContract, 'method' | 'url'>) });
  });
  return contracts;
}

/** The server's own base URL from the address it listens on (its configured one before it does). */
export function listeningUrl(app: FastifyInstance, configured: { host: string; port: number }): string {
  const address = app.server.address() as AddressInfo | string | null;
  if (!address || typeof address !== 'object') return `http://${configured.host}:${configured.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
