import type { FastifyRequest } from 'fastify';

/**
 * The path a rule about paths (rate limit, no-store, open or staff-only) is decided on: the route
 * the router matched, whatever the spelling that reached it (the router decodes `/%61pi/flows` to
 * `/api/flows`, so a test of the raw URL would let that spelling past the rule). A request that
 * matched no route is judged on its decoded path.
 */
export function rulePath(request: FastifyRequest): string {
  const matched = request.routeOptions.url;
  if (matched) return matched;
  const path = request.url.split('?')[0];
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
