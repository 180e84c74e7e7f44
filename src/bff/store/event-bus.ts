import type { StaffStreamEvent } from '@/shared/contract/bff-api';

/** Carries staff events between the instances that share a database (pg-event-bus.ts): the database they share is the store's. */
export interface EventBus {
  /** Starts receiving: every instance's events, this one's included, go to `deliver`. */
  start(deliver: (event: StaffStreamEvent) => void): Promise<void>;
  publish(event: StaffStreamEvent): void;
  close(): Promise<void>;
}
