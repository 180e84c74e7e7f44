import type { FastifyBaseLogger } from 'fastify';
import type { Flow } from '@/shared/flow';
import type { ServiceConfig } from '../config';
import type { Db } from '../storage/db';
import type { FlowPlan } from '@/shared/flow-plan';
import type { MediaStore } from '../storage/media-store';
import type { OutboundPolicy } from '../storage/outbound-url';
import type { Outbox } from '../storage/outbox';
import type { VerificationRepo } from '../storage/verification-repo';

/** Everything a route or a background task of the service needs, built once by app.ts. */
export interface ServiceContext {
  config: ServiceConfig;
  /** The connection: its transactions, and the tables outside `repo` (outbox, credit checks). */
  db: Db;
  /** The verifications, inputs and media tables. */
  repo: VerificationRepo;
  flows: Map<string, Flow>;
  plans: Map<string, FlowPlan>;
  media: MediaStore;
  outbox: Outbox;
  /** Where webhooks and callbacks may go (outbound-url.ts). */
  outbound: OutboundPolicy;
  log: FastifyBaseLogger;
  /** The service's own base URL (PUBLIC_URL, or the address it listens on). */
  baseUrl(): string;
}

export interface VerificationRow {
  id: string;
  identity: string;
  flow_id: string;
  metadata: string | null;
  status: 'pending' | 'running' | 'verified' | 'reviewNeeded' | 'rejected';
  expired: number;
  skip_wait: number;
  wait_until: number | null;
  expires_at: number | null;
  started_at: number | null;
  inputs_completed_at: number | null;
  completed_at: number | null;
  ip: string | null;
  ua: string | null;
  result: string | null;
  created_at: number;
  updated_at: number;
}

export interface InputRow {
  verification_id: string;
  slot: string;
  position: number;
  input_type: string;
  status: 'accepted' | 'failed';
  error_code: string | null;
  descriptor: string;
  media_id: string | null;
  facts: string | null;
  updated_at: number;
}
