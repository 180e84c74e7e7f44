import type { StaffStreamEvent } from '@/shared/contract/bff-api';

type Listener = (event: StaffStreamEvent) => void;

/** Fans staff-console events out to the open server-sent-event streams of this process. */
export class EventHub {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: StaffStreamEvent) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken stream must not keep the others from their events.
      }
    }
  }
}
