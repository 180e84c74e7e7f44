import type { FastifyBaseLogger } from 'fastify';
import type { VerificationSummary } from '@/shared/contract/bff-api';
import { creditCheckResultEventSchema } from '@/shared/contract/credit-check';
import { verificationDataSchema, type VerificationData } from '@/shared/contract/verification';
import { verificationEventSchema } from '@/shared/contract/webhooks';
import type { BffStore, PendingEvent } from '../store/store';
import type { UpstreamClient } from '../upstream/upstream-client';
import type { EventHub } from './event-hub';
import { rewriteMediaUrls } from './media-urls';
import { BffHttpError, notFound, upstreamFailed } from '../errors';

const verificationIdIn = /^\/v2\/verifications\/([^/?#]+)$/;
const noop = () => undefined;

type Refreshed = { data: VerificationData; summary: VerificationSummary };
interface Flight {
  running: Promise<Refreshed>;
  next: Promise<Refreshed> | null;
}

/**
 * Keeps the latest data and status per verification: processes stored webhook events after they
 * were answered, fetches the data their `resource` points to, and tells the staff streams.
 */
export class VerificationSync {
  /**
   * The fetch of each verification under way, and the one queued behind it. Fetches of one
   * verification run one after the other, so that older data never wins; whoever asks while one
   * runs shares the queued one (one more fetch however many ask), and a status poll shares even
   * the running one.
   */
  private readonly flights = new Map<string, Flight>();
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly store: BffStore,
    private readonly upstream: UpstreamClient,
    private readonly hub: EventHub,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The verification id of a resource URL, and whether that URL may be fetched with the token. */
  resourceOf(resource: string): { verificationId: string; fetchable: boolean } | null {
    let pathname: string;
    try {
      pathname = new URL(resource).pathname;
    } catch {
      return null;
    }
    const local = this.upstream.localPath(resource);
    const match = verificationIdIn.exec(local ?? pathname.replace(/^.*(?=\/v2\/verifications\/)/, ''));
    if (!match) return null;
    return { verificationId: decodeURIComponent(match[1]), fetchable: local !== null };
  }

  /**
   * The service's data of a verification, fetched and stored. `fresh` (the default): fetched after
   * this call (what an event or a catch-up needs); `fresh: false`: a fetch already under way will
   * do (status polls, which may come many at once and need no more than "about now").
   */
  refresh(verificationId: string, requestId?: string, { fresh = true } = {}): Promise<Refreshed> {
    const flight = this.flights.get(verificationId);
    if (!flight) {
      // In the map before it flies: its end looks itself up there.
      const started = { next: null } as Flight;
      this.flights.set(verificationId, started);
      started.running = this.fly(verificationId, started, requestId);
      return started.running;
    }
    if (!fresh) return flight.next ?? flight.running;
    if (!flight.next) {
      const next: Promise<Refreshed> = flight.running.then(noop, noop).then(() => {
        flight.running = next;
        flight.next = null;
        return this.fly(verificationId, flight, requestId);
      });
      flight.next = next;
    }
    return flight.next;
  }

  private fly(verificationId: string, flight: Flight, requestId?: string): Promise<Refreshed> {
    // The store's lock keeps instances apart too (one database, several BFFs).
    return this.store
      .exclusive(`verification:${verificationId}`, () => this.fetchAndSave(verificationId, requestId))
      .finally(() => {
        if (!flight.next && this.flights.get(verificationId) === flight) this.flights.delete(verificationId);
      });
  }

  /**
   * Erases the BFF's copy of a verification (its data, events, input results, session bindings,
   * media links, handoff links): the staff's erasure, the service's `verification_deleted`, or
   * the service no longer having it.
   */
  erase(verificationId: string): Promise<void> {
    return this.store.exclusive(`verification:${verificationId}`, () => this.eraseCopy(verificationId));
  }

  private async eraseCopy(verificationId: string) {
    const stored = await this.store.getVerification(verificationId);
    const media = stored?.data ? rewriteMediaUrls(stored.data, this.upstream.origin).media : [];
    await this.store.deleteVerification(
      verificationId,
      media.map((m) => m.id),
    );
    if (stored) this.hub.publish({ kind: 'verification-deleted', id: verificationId });
  }

  private async fetchAndSave(verificationId: string, requestId?: string): Promise<Refreshed> {
    // Under the verification's lock, as the erasure is: data fetched before an erasure is not
    // saved after it (a reconciliation round, a status poll, a replayed webhook).
    if (await this.store.wasErased(verificationId)) throw notFound('No such verification.');
    const path = `/v2/verifications/${encodeURIComponent(verificationId)}`;
    const { body } = await this.upstream.json('GET', path, { requestId }).catch(async (error: unknown) => {
      // Gone at the service (erased there, by a request or its retention): so is the copy here.
      if (error instanceof BffHttpError && error.statusCode === 404) await this.eraseCopy(verificationId);
      throw error;
    });
    const parsed = verificationDataSchema.safeParse(body);
    if (!parsed.success) {
      this.log.warn({ issue: parsed.error.issues[0] }, 'verification data of an unknown shape');
      throw upstreamFailed('The verification service sent data of an unknown shape.');
    }
    const data = parsed.data;
    const { media } = rewriteMediaUrls(data, this.upstream.origin);
    if (media.length) await this.store.rememberMedia(media);
    const saved = await this.store.saveVerificationData(verificationId, {
      data,
      status: data.identity.status,
      identity: data.identity.id ?? null,
      flowId: data.flow.id,
      flowName: data.flow.name,
    });
    if (saved.changed) this.hub.publish({ kind: 'verification', verification: saved.summary });
    return { data, summary: saved.summary };
  }

  /** Processes a stored event in the background; the webhook has been answered already. */
  schedule(pending: PendingEvent) {
    const task = this.process(pending)
      .catch((err: unknown) =>
        this.log.warn({ err, eventId: pending.event.id }, 'webhook event not processed yet'),
      )
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  /** Events stored but not processed before a restart. */
  async resume() {
    for (const pending of await this.store.unprocessedEvents()) this.schedule(pending);
  }

  /** Waits for the background work, for a graceful shutdown (and tests). */
  async idle() {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private async process({ event, verificationId }: PendingEvent) {
    if (event.kind === 'credit-check') {
      await this.processCreditCheck(event.body);
    } else if (verificationId && event.eventName === 'verification_deleted') {
      // Believed only when the service confirms it: a 404 for the id erases the copy (and this
      // event's row with it: nothing is left to mark processed); data answered instead is kept.
      const erased = await this.withRetries(() =>
        this.refresh(verificationId).then(
          () => false,
          (error: unknown) => {
            if (error instanceof BffHttpError && error.statusCode === 404) return true;
            throw error;
          },
        ),
      );
      if (erased) return;
      this.log.warn(
        { eventId: event.id },
        'verification_deleted for a verification the service still has; kept',
      );
    } else if (verificationId) {
      const body = verificationEventSchema.safeParse(event.body).data;
      const noted = await this.store.exclusive(`verification:${verificationId}`, async () => {
        // Erased while this event waited (or a replay that came in just then): the erasure is
        // made again, which takes this event's row (and the metadata in its body) with it.
        if (await this.store.wasErased(verificationId)) {
          await this.eraseCopy(verificationId);
          return null;
        }
        return this.store.noteVerificationEvent(verificationId, {
          flowId: body?.flowId ?? 'unknown',
          eventName: event.eventName,
          at: event.receivedAt,
        });
      });
      if (!noted) return;
      const target = body ? this.resourceOf(body.resource) : null;
      if (target?.fetchable) {
        await this.withRetries(() => this.refresh(verificationId));
      } else if (target) {
        this.log.warn({ eventId: event.id }, 'webhook resource is not on the service origin; not fetched');
      }
      // The staff list shows the latest event even when the status did not move.
      const current = await this.store.getVerification(verificationId);
      this.hub.publish({ kind: 'verification', verification: current?.summary ?? noted.summary });
    }
    await this.store.markEventProcessed(event.id);
  }

  private async processCreditCheck(body: unknown) {
    const parsed = creditCheckResultEventSchema.safeParse(body);
    if (!parsed.success) return;
    const { id, country, request, result } = parsed.data;
    const failure =
      result.status === 'failed' || typeof result.error === 'string'
        ? String(result.error ?? result.message ?? 'the credit bureau check failed')
        : null;
    const record = await this.store.completeCreditCheck(id, {
      country,
      request,
      status: failure ? 'failed' : 'completed',
      result: failure ? null : result,
      error: failure,
      completedAt: new Date().toISOString(),
    });
    this.hub.publish({ kind: 'credit-check', creditCheck: record });
  }

  private async withRetries<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (error) {
        if (attempt >= 2) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * 3 ** attempt));
      }
    }
  }
}
