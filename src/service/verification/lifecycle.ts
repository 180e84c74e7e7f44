import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceContext } from './context';
import type { InputRow, VerificationChange, VerificationRow } from '../storage/rows';
import type { VerificationRepo } from '../storage/verification-repo';
import { backOf, documentSlotKey, sidesOf, type FlowPlan } from '@/shared/flow-plan';
import type { FinalStatus } from '@/shared/contract/verification';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import type { JobPayload } from '../storage/jobs';
import { makeVideoStills } from './video-stills';
import { addFaceDescriptors } from './face-descriptors';
import { shownStep } from './document-check-step';
import { buildResult } from './build-result';
import { stepKeys, type ProcessingResult } from './step-results';
import { renderStep } from './verification-view';

export const newId = () => randomBytes(12).toString('hex');

type Completion = 'complete' | 'waiting' | 'incomplete';

/**
 * The verification state machine: pending (collecting inputs) → running (processing, inputs
 * locked) → verified | reviewNeeded | rejected; a pending verification may expire. Every state
 * change writes its webhook events to the outbox in the same transaction. Deadlines (upload wait,
 * expiry) and processing are durable jobs (ctx.jobs): any instance on PostgreSQL, or the next
 * start on SQLite, runs what a stopped or dead process left. A job may run twice or early, so each
 * handler checks the verification's state and times first.
 */
export class Lifecycle {
  private readonly processing = new Set<string>();
  private readonly shutdown = new AbortController();
  private closed = false;

  constructor(private readonly ctx: ServiceContext) {
    const idOf = (payload: JobPayload) => String(payload.id);
    ctx.jobs.register('expire', (payload) => this.expire(idOf(payload)), {
      leaseSeconds: 60,
      concurrency: 2,
    });
    ctx.jobs.register(
      'upload-wait',
      async (payload) => {
        const v = await this.ctx.repo.get(idOf(payload));
        if (v) await this.withLock(v.identity, () => this.evaluate(v.id));
      },
      { leaseSeconds: 60, concurrency: 2 },
    );
    // A run is a few seconds of checks; the lease is what a killed instance's run waits for.
    ctx.jobs.register('process', (payload) => this.process(idOf(payload)), {
      leaseSeconds: 600,
      concurrency: 2,
    });
  }

  /**
   * Schedules a job after the change that needs it committed; a failure is logged (resume() catches
   * up). Awaited before a request is answered: an instance killed right after its answer leaves
   * the job in the queue for the others (the window left is between the commit and the schedule).
   */
  private later(name: string, id: string, at: number, keep = false) {
    return this.ctx.jobs.schedule(name, id, at, { id }, { keep }).catch((error: unknown) => {
      if (!this.closed) this.ctx.log.error({ err: error }, 'background verification work failed');
    });
  }

  private drop(name: string, id: string) {
    this.background(this.ctx.jobs.cancel(name, id));
  }

  /** Work started by a timer or after a response: a failure is logged, never an unhandled rejection. */
  private background(work: Promise<unknown>) {
    work.catch((error: unknown) => {
      if (!this.closed) this.ctx.log.error({ err: error }, 'background verification work failed');
    });
  }

  /**
   * Runs fn with no other send-input or state change of the same identity in between, on any
   * instance that shares the database (`ServiceDb.exclusive`).
   */
  withLock<T>(identity: string, fn: () => Promise<T>): Promise<T> {
    return this.ctx.db.exclusive(`identity:${identity}`, fn);
  }

  /**
   * A new verification of a new identity, or of an existing one (re-verification). Its expiry
   * moves with every send-input: it expires after VERIFICATION_TTL_SECONDS without activity.
   */
  async create(
    flowId: string,
    metadata: Record<string, unknown> | undefined,
    origin: {
      identity?: string;
      ip?: string | null;
      ua?: string | null;
      challenge?: LivenessChallenge | null;
    } = {},
  ): Promise<VerificationRow> {
    const now = Date.now();
    const id = newId();
    const identity = origin.identity ?? newId();
    const expiresAt = now + this.ctx.config.verificationTtlSeconds * 1000;
    await this.ctx.repo.insert({
      id,
      identity,
      flow_id: flowId,
      metadata: metadata ? JSON.stringify(metadata) : null,
      expires_at: expiresAt,
      ip: origin.ip ?? null,
      ua: origin.ua ?? null,
      challenge: origin.challenge ? JSON.stringify(origin.challenge) : null,
      created_at: now,
    });
    await this.later('expire', id, expiresAt);
    return (await this.ctx.repo.get(id))!;
  }

  /** Webhook event for a verification (wire contract §7), written by `tx`: the transaction of the change. */
  async event(
    tx: VerificationRepo,
    v: VerificationRow,
    eventName: string,
    extra: Record<string, unknown> = {},
  ) {
    const url = this.ctx.config.webhookUrl;
    if (!url) return;
    await tx.enqueueEvent(url, eventName, {
      eventName,
      resource: `${this.ctx.baseUrl()}/v2/verifications/${v.id}`,
      flowId: v.flow_id,
      timestamp: new Date().toISOString(),
      metadata: v.metadata ? JSON.parse(v.metadata) : {},
      ...extra,
    });
  }

  completion(plan: FlowPlan, v: VerificationRow, inputs: InputRow[], now = Date.now()): Completion {
    const accepted = new Map(inputs.filter((i) => i.status === 'accepted').map((i) => [i.slot, i]));
    const waitOver = v.skip_wait === 1 || (v.wait_until !== null && now >= v.wait_until);
    let state: Completion = 'complete';
    const need = (c: Completion) => {
      if (c === 'incomplete' || state === 'complete') state = c;
    };
    for (const planned of plan.documents) {
      const front = accepted.get(documentSlotKey(planned.group, 'front'));
      if (!front) {
        need('incomplete');
        continue;
      }
      if (accepted.has(documentSlotKey(planned.group, 'back'))) continue;
      const sides = backOf(
        planned,
        (JSON.parse(front.descriptor) as { data: { type: string; country?: string; page: string } }).data,
      );
      if (sides === 'two' && v.skip_wait !== 1) need('incomplete');
      if (sides === 'one-or-two' && !waitOver) need('waiting');
    }
    if (plan.biometric && !accepted.has('biometric')) need('incomplete');
    if (plan.customFields && !accepted.has('custom-fields')) need('incomplete');
    if (plan.bank && !accepted.has('bank-statement')) need('incomplete');
    return state;
  }

  /** A front of a one-or-two-sided document starts the wait for its back. */
  private needsWait(plan: FlowPlan, inputs: InputRow[]) {
    const accepted = new Set(inputs.filter((i) => i.status === 'accepted').map((i) => i.slot));
    return plan.documents.some((planned) => {
      if (planned.kind !== 'document') return false;
      const front = inputs.find(
        (i) => i.slot === documentSlotKey(planned.group, 'front') && i.status === 'accepted',
      );
      if (!front || accepted.has(documentSlotKey(planned.group, 'back'))) return false;
      const data = (JSON.parse(front.descriptor) as { data: { type: string; country: string } }).data;
      return sidesOf(data.type, data.country) === 'one-or-two';
    });
  }

  /** After a send-input was committed (under the identity's lock). */
  async afterInputs(verificationId: string) {
    const v = (await this.ctx.repo.get(verificationId))!;
    const plan = this.ctx.plans.get(v.flow_id)!;
    const inputs = await this.ctx.repo.inputs(v.id);
    const fields: VerificationChange = {};
    let events = false;
    await this.ctx.repo.transaction(async (tx) => {
      if (v.started_at === null && inputs.some((i) => i.status === 'accepted')) {
        fields.started_at = Date.now();
        events = true;
        await this.event(tx, v, 'verification_started');
      }
      if (v.wait_until === null && this.needsWait(plan, inputs)) {
        fields.wait_until = Date.now() + this.ctx.config.uploadWaitSeconds * 1000;
        events = true;
        // Processing waits for a back side that may still come.
        await this.event(tx, v, 'verification_postponed');
      }
      // The expiry job finds the later time when it runs, and waits again.
      if (v.status === 'pending')
        fields.expires_at = Date.now() + this.ctx.config.verificationTtlSeconds * 1000;
      if (Object.keys(fields).length > 0) await tx.update(v.id, fields);
    });
    // Under the identity's lock, the rows as just written: not read again.
    await this.evaluate(v.id, { v: { ...v, ...fields }, inputs });
    if (events) this.ctx.outbox.resume();
  }

  /**
   * Starts processing when every input is in (or the wait for a back is over). `known`: the
   * verification and its inputs as the caller, under the identity's lock, just wrote them.
   */
  async evaluate(verificationId: string, known?: { v: VerificationRow; inputs: InputRow[] }) {
    const v = known ? known.v : await this.ctx.repo.get(verificationId);
    if (!v || v.status !== 'pending' || v.expired) return;
    const plan = this.ctx.plans.get(v.flow_id)!;
    const state = this.completion(plan, v, known ? known.inputs : await this.ctx.repo.inputs(v.id));
    if (state === 'waiting' && v.wait_until !== null) await this.later('upload-wait', v.id, v.wait_until);
    if (state !== 'complete') return;
    this.drop('upload-wait', v.id);
    this.drop('expire', v.id);
    await this.ctx.repo.transaction(async (tx) => {
      await tx.update(v.id, { status: 'running', inputs_completed_at: Date.now() });
      await this.event(tx, v, 'verification_inputs_completed');
    });
    this.ctx.outbox.resume();
    await this.later('process', v.id, Date.now());
  }

  async skipWait(v: VerificationRow) {
    await this.withLock(v.identity, async () => {
      const current = await this.ctx.repo.get(v.id);
      if (current?.status !== 'pending' || current.skip_wait === 1) return;
      await this.ctx.repo.update(v.id, { skip_wait: 1 });
      await this.evaluate(v.id);
    });
  }

  /** The expiry job: expires the verification if it is still unfinished and its time has come. */
  private async expire(id: string) {
    const v = await this.ctx.repo.get(id);
    if (!v || v.status !== 'pending' || v.expired || v.expires_at === null) return;
    // Activity moved the time on since the job was scheduled: wait for the new one.
    if (v.expires_at > Date.now()) return this.later('expire', id, v.expires_at);
    await this.withLock(v.identity, async () => {
      const current = await this.ctx.repo.get(id);
      if (!current || current.status !== 'pending' || current.expired || current.expires_at === null) return;
      // A send-input that held the lock meanwhile moved the time on.
      if (current.expires_at > Date.now()) return this.later('expire', id, current.expires_at);
      await this.ctx.repo.transaction(async (tx) => {
        await tx.update(id, { expired: 1 });
        await this.event(tx, current, 'verification_expired');
      });
      this.drop('upload-wait', id);
      this.ctx.outbox.resume();
    });
  }

  /** Reveals the results step by step (PROCESSING_STEP_MS apart), each with a step_completed event. */
  async process(id: string) {
    if (this.processing.has(id) || this.closed) return;
    this.processing.add(id);
    try {
      const v = await this.ctx.repo.get(id);
      if (!v || v.status !== 'running') return;
      const plan = this.ctx.plans.get(v.flow_id)!;
      let result: ProcessingResult;
      if (v.result) result = JSON.parse(v.result) as ProcessingResult;
      else {
        const video = (await this.ctx.repo.inputs(v.id)).find(
          (i) => i.slot === 'biometric' && i.status === 'accepted' && i.input_type === 'selfie-video',
        );
        if (video) await makeVideoStills(this.ctx, v, video);
        if (!(await this.stillThere(id))) return;
        await addFaceDescriptors(this.ctx, v, plan);
        if (!(await this.stillThere(id))) return;
        result = buildResult(plan, v, await this.ctx.repo.inputs(v.id), {
          demo: this.ctx.config.demoScenarios,
        });
        await this.ctx.repo.update(id, { result: JSON.stringify(result) });
      }
      for (const key of stepKeys(result)) {
        if (result.done.includes(key)) continue;
        if (this.ctx.config.processingStepMs > 0) {
          await sleep(this.ctx.config.processingStepMs, undefined, { signal: this.shutdown.signal }).catch(
            () => {},
          );
        }
        if (!(await this.stillThere(id))) return;
        const [scope, index, stepId] = key.split('.');
        const step =
          scope === 'steps'
            ? result.steps.find((s) => s.id === index)!
            : result.documents[Number(index)].steps.find((s) => s.id === stepId)!;
        result.done.push(key);
        const emitted = await this.ctx.repo.transaction(async (tx) => {
          // Another run of the same job (a lapsed lease) got there first: its event stands alone.
          const stored = (await tx.get(id, { forUpdate: true }))?.result;
          if (stored && (JSON.parse(stored) as ProcessingResult).done.includes(key)) return false;
          await tx.update(id, { result: JSON.stringify(result) });
          // A check not performed is no step of the hosted shape: no event for it there either.
          if (shownStep(step, this.ctx.config.extensions)) {
            await this.event(tx, v, 'step_completed', {
              step: {
                ...renderStep(this.ctx, step, true, false),
                ...(scope === 'documents' ? { documentIndex: Number(index) } : {}),
              },
            });
          }
          return true;
        });
        if (!emitted) return;
        this.ctx.outbox.resume();
      }
      if (this.closed) return;
      await this.ctx.repo.transaction(async (tx) => {
        if ((await tx.get(id, { forUpdate: true }))?.status !== 'running') return;
        await tx.update(id, { status: result.finalStatus, completed_at: Date.now() });
        await this.event(tx, v, 'verification_completed');
      });
      this.ctx.outbox.resume();
    } finally {
      this.processing.delete(id);
    }
  }

  /**
   * Erasure (the person's right to it): the verification, its inputs, its media files and the
   * events not yet delivered about it. Nothing of it is left on disk (secure_delete, then a
   * checkpoint that empties the WAL). With the extensions on, `verification_deleted` tells the
   * webhook receiver to erase its copy.
   */
  async erase(v: VerificationRow) {
    await this.withLock(v.identity, async () => {
      this.drop('upload-wait', v.id);
      this.drop('expire', v.id);
      // Erased meanwhile (by another instance's request or retention sweep): one erasure, one event.
      if (!(await this.ctx.repo.get(v.id))) return;
      const media = await this.ctx.repo.mediaIdsOf(v.id);
      await this.ctx.repo.transaction(async (tx) => {
        await tx.delete(v.id);
        await tx.dropEventsFor(`/v2/verifications/${v.id}`);
        // The BFF (or any receiver) keeps a copy: it is told to erase it too. No metadata: the
        // event outlives the verification it names.
        if (this.ctx.config.extensions) await this.event(tx, v, 'verification_deleted', { metadata: null });
      });
      this.ctx.db.afterErase();
      this.ctx.outbox.resume();
      await Promise.all(media.map((id) => this.ctx.media.remove(id)));
    });
  }

  /** A reviewer's decision on a finished verification: sets its status, sends verification_updated. */
  async review(v: VerificationRow, status: FinalStatus) {
    await this.ctx.repo.transaction(async (tx) => {
      await tx.update(v.id, { status });
      await this.event(tx, v, 'verification_updated');
    });
    this.ctx.outbox.resume();
  }

  /**
   * At start, a catch-up: a job for every unfinished verification that has none (one whose job
   * was never scheduled, the process dying between its commit and the schedule, or a file from
   * before the jobs). A job waiting or under way elsewhere stays as it is.
   */
  async resume() {
    const rows = await this.ctx.repo.unfinished();
    for (const v of rows) {
      if (!this.ctx.plans.has(v.flow_id)) continue;
      if (v.status === 'running') {
        void this.later('process', v.id, Date.now(), true);
        continue;
      }
      if (v.expires_at !== null) void this.later('expire', v.id, v.expires_at, true);
      this.background(this.withLock(v.identity, async () => this.evaluate(v.id)));
    }
  }

  /** Processing goes on only while the service runs and the verification was not erased meanwhile. */
  private async stillThere(id: string) {
    return !this.closed && (await this.ctx.repo.get(id)) !== undefined;
  }

  /** Stops: runs under way return early (their jobs run again), the job queue closes after. */
  close() {
    this.closed = true;
    this.shutdown.abort();
  }
}
