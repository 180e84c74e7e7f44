/**
 * What a route declares about itself in Fastify's route `config`, so that the rules about who may
 * call it are read off the route the router matched (whatever spelling reached it), never off
 * lists of path prefixes kept beside the routes.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Anyone may call it without a session or a token (webhooks, staff sign-in, health): its body
     * must arrive within the open-body timeout, and only so many such requests run at once
     * (open-route-guard.ts). `true` counts it in the slots the open routes share; a name, in
     * slots of its own (the service's webhooks are not refused for sign-in attempts).
     */
    open?: boolean | string;
  }
}

/** Route options of a route anyone may call (see `open` above). */
export const openRoute = { config: { open: true } } as const;

/**
 * Route options of an open route with slots of its own, that the per-address rate limit does not
 * count either: signed webhooks (the sender retries on its own schedule) and health probes (a load
 * balancer polling under load must not be told 429).
 */
export const openUnlimitedRoute = (pool: string) => ({ config: { open: pool, rateLimit: false } }) as const;
