import type { Brand } from '@/shared/contract/page-data';
import type { Flow } from '@/shared/flow';
import type { BffConfig } from './config';
import type { EventHub } from './domain/event-hub';
import type { OpenRouteGuard } from '@/server-shared/open-route-guard';
import type { LoginLimiter } from './http/login-limiter';
import type { VerificationSync } from './domain/verification-sync';
import type { BffStore } from './store/store';
import type { UpstreamClient } from './upstream/upstream-client';

/** What the route modules share; app.ts builds it once per app. */
export interface BffDeps {
  config: BffConfig;
  store: BffStore;
  upstream: UpstreamClient;
  hub: EventHub;
  sync: VerificationSync;
  loginLimiter: LoginLimiter;
  /** The flow definitions of FLOWS_DIR, by id. */
  flows: Map<string, Flow>;
  /** The brand of the BRAND_* settings and RETENTION_DAYS (routes/brand.ts), worked out once. */
  brand: Brand;
  /** This BFF's base URL as the service must call it back (PUBLIC_BFF_URL or the listening address). */
  publicUrl: () => string;
  /** The open routes' slots: a sender of a validly signed webhook gets its own. */
  openRoutes: OpenRouteGuard;
}
