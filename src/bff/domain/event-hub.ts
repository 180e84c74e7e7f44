import type { StaffStreamEvent } from '@/shared/contract/bff-api';
import type { EventBus } from '../store/event-bus';

type Listener = (event: StaffStreamEvent) => void;

/**
 * Fans staff-console events out to the open server-sent-event streams of this process. With a
 * bus, an event goes round the bus first, so that the consoles of every instance get it, in the
 * same order.
 */
export class EventHub {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly bus: EventBus | null = null) {}

  async start() {
    await this.bus?.start((event) => this.deliver(event));
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: StaffStreamEvent) {
    if (this.bus) this.bus.publish(event);
    else this.deliver(event);
  }

  async close() {
    await this.bus?.close();
  }

  private deliver(event: StaffStreamEvent) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken stream must not keep the others from their events.
      }
    }
  }
}
