import type { FastifyBaseLogger } from 'fastify';
import type { Flow } from '@/shared/flow';
import type { ServiceConfig } from '../config';
import type { ServiceDb } from '../storage/db';
import type { FlowPlan } from '@/shared/flow-plan';
import type { JobQueue } from '../storage/jobs';
import type { MediaStore } from '../storage/media-store';
import type { OutboundPolicy } from '../storage/outbound-url';
import type { Outbox } from '../storage/outbox';
import type { VerificationRepo } from '../storage/verification-repo';

/** Everything a route or a background task of the service needs, built once by app.ts. */
export interface ServiceContext {
  config: ServiceConfig;
  /** The database (SQLite or PostgreSQL): what differs between the two. */
  db: ServiceDb;
  /** Every table's reads and writes, and their transactions. */
  repo: VerificationRepo;
  flows: Map<string, Flow>;
  plans: Map<string, FlowPlan>;
  media: MediaStore;
  outbox: Outbox;
  /** Deadlines and background work that outlive this process (storage/jobs.ts). */
  jobs: JobQueue;
  /** Where webhooks and callbacks may go (outbound-url.ts). */
  outbound: OutboundPolicy;
  log: FastifyBaseLogger;
  /** The service's own base URL (PUBLIC_URL, or the address it listens on). */
  baseUrl(): string;
}
