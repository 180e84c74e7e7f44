import type { FastifyRequest } from 'fastify';
import { errorTypeOf, type ErrorCode } from '@/shared/error-codes';
import {
  fileFieldOf,
  inputsFieldSchema,
  type InputDescriptor,
  type InputResult,
} from '@/shared/contract/send-input';
import { checkBankStatement } from '../checks/inputs/bank-statement';
import { checkCustomDocument } from '../checks/inputs/custom-document';
import { checkDocumentPhoto } from '../checks/inputs/document-photo';
import { checkSelfiePhoto } from '../checks/inputs/selfie-photo';
import { checkSelfieVideo, type VideoChallenge } from '../checks/inputs/selfie-video';
import type { CheckOutcome, InputFacts } from '@/checks/inputs/node/types';
import type { ServiceContext } from './context';
import type { VerificationRow } from '../storage/rows';
import { errorMessages } from './error-messages';
import { integrationError, notFound, ServiceError } from './service-error';
import { documentSlotKey, type FlowPlan, type Slot } from '@/shared/flow-plan';
import { challengeAfter, challengeOf } from './liveness-attempts';
import { slotOf } from './flow-plan';
import type { Lifecycle } from './lifecycle';
import { discardFiles, receiveForm, type UploadedFile } from './uploads';

const locked = () =>
  new ServiceError(409, {
    code: 'input.locked',
    type: 'IntegrationError',
    name: 'input.locked',
    message: 'All inputs are in and the verification has started; it takes no more inputs.',
  });
const expired = () =>
  new ServiceError(409, {
    code: 'verification.expired',
    type: 'IntegrationError',
    name: 'verification.expired',
    message: 'This verification has expired; create a new one.',
  });

function assertOpen(v: VerificationRow) {
  if (v.expired) throw expired();
  if (v.status !== 'pending') throw locked();
}

/** The failure a check gives when it throws instead of answering: the service's own fault. */
const systemCodeOf: Record<InputDescriptor['inputType'], ErrorCode> = {
  'document-photo': 'documentPhoto.unexpectedData',
  'custom-document-photo': 'documentPhoto.unexpectedData',
  'selfie-photo': 'selfiePhoto.validationError',
  'selfie-video': 'voiceVideo.conversionFailed',
  'financial-information-bank-statement-parsing-request': 'bankDocument.statementNotSupported',
  'custom-fields': 'documentPhoto.unexpectedData',
};

interface SlotState {
  status: 'accepted' | 'failed';
  facts: InputFacts;
}

interface Write {
  slot: Slot;
  /** The verification's challenge as it is after this input (a judged video uses its attempt up). */
  challenge?: string;
  descriptor: InputDescriptor;
  code: ErrorCode | null;
  facts: InputFacts;
  file: UploadedFile | null;
}

/**
 * A check that never ends must not hold the identity's lock (and the client) forever; given up, it
 * is aborted, so that the images and frames it waits for or decodes are dropped or stopped.
 */
const CHECK_TIMEOUT_MS = 60_000;
async function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`check took over ${CHECK_TIMEOUT_MS} ms`));
    }, CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A descriptor's data as answered and kept: a statement's password is neither echoed nor stored. */
function publicData(d: InputDescriptor) {
  if (d.inputType !== 'financial-information-bank-statement-parsing-request') return d.data;
  const { password: _password, ...data } = d.data;
  return data;
}

function parseDescriptors(text: string | null): InputDescriptor[] {
  if (text === null) throw integrationError('the inputs field is missing', 'invalid_inputs');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw integrationError('the inputs field is not JSON', 'invalid_inputs');
  }
  const parsed = inputsFieldSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw integrationError(
      `inputs${issue.path.map((p) => `[${JSON.stringify(p)}]`).join('')}: ${issue.message}`,
      'invalid_inputs',
    );
  }
  return parsed.data;
}

async function runCheck(
  verification: string,
  plan: FlowPlan,
  d: InputDescriptor,
  file: UploadedFile,
  otherSide: InputFacts | undefined,
  challenge: VideoChallenge | null,
  markers: boolean,
  signal: AbortSignal,
): Promise<CheckOutcome> {
  const run = { verification, signal };
  switch (d.inputType) {
    case 'document-photo': {
      const planned = plan.documents[d.group];
      const requires = planned.kind === 'document' ? planned.step.requires : [];
      return checkDocumentPhoto(file, {
        type: d.data.type,
        country: d.data.country,
        page: d.data.page,
        requires,
        faceRequired: plan.biometric !== null,
        markers,
        ...run,
        ...(otherSide ? { otherSide: { phash: otherSide.phash } } : {}),
      });
    }
    case 'custom-document-photo': {
      const planned = plan.documents[d.group];
      return checkCustomDocument(file, {
        page: d.data.page,
        multiPageAllowed: planned.kind === 'custom' && planned.doc.multiPage,
        markers,
        ...run,
      });
    }
    case 'selfie-photo':
      return checkSelfiePhoto(file, { markers, ...run });
    case 'selfie-video':
      return checkSelfieVideo(file, challenge, { markers, ...run });
    case 'financial-information-bank-statement-parsing-request':
      return checkBankStatement(file, {
        ...(d.data.password !== undefined ? { password: d.data.password } : {}),
        country: d.data.country,
        institutionId: d.data.institutionId,
        markers,
        ...run,
      });
    case 'custom-fields':
      return { code: null, facts: {} };
  }
}

/**
 * POST /v2/identities/{identity}/send-input (service spec 4.1, wire contract §4). Request-level problems throw
 * (and nothing of the request is kept); otherwise one result per descriptor, in order.
 */
export async function sendInput(
  ctx: ServiceContext,
  lifecycle: Lifecycle,
  request: FastifyRequest,
  identity: string,
): Promise<InputResult[]> {
  const known = await ctx.repo.byIdentity(identity);
  if (!known) throw notFound('No identity has this id.');
  assertOpen(known);
  const plan = ctx.plans.get(known.flow_id);
  if (!plan)
    throw new ServiceError(500, {
      code: 500,
      type: 'SystemError',
      name: 'internal',
      message: 'The flow of this verification no longer exists.',
    });

  const form = await receiveForm(request, ctx.media);
  const adopted = new Set<string>();
  try {
    const descriptors = parseDescriptors(form.inputs);
    const slots = descriptors.map((d, i) => slotOf(plan, d, i));
    for (let i = 1; i < slots.length; i++) {
      if (slots[i].position <= slots[i - 1].position) {
        throw integrationError(
          `inputs[${i}] is out of the flow's order (documents, biometric, custom documents, custom fields, bank statement; front before back; one descriptor per input)`,
          'inputs_out_of_order',
        );
      }
    }
    return await lifecycle.withLock(identity, async () => {
      const v = (await ctx.repo.byIdentity(identity))!;
      assertOpen(v);
      const stored = await ctx.repo.inputs(v.id);
      const state = new Map<string, SlotState>(
        stored.map((row) => [
          row.slot,
          {
            status: row.status,
            facts: row.facts ? (JSON.parse(row.facts) as InputFacts) : {},
          },
        ]),
      );
      const accepted = (key: string | null) => {
        const s = key ? state.get(key) : undefined;
        return s?.status === 'accepted' ? s.facts : undefined;
      };
      const challenge = challengeOf(v);
      const otherSideKey = (slot: Slot) =>
        slot.group === undefined
          ? null
          : documentSlotKey(slot.group, slot.key.endsWith(':front') ? 'back' : 'front');

      // The files' checks run side by side; only a back waits for its front of the same request
      // (to compare the two pictures). The answers are then taken in flow order.
      const used = new Set<UploadedFile>();
      const pending: { file: UploadedFile | null; outcome: Promise<CheckOutcome> }[] = [];
      const bySlot = new Map<string, Promise<CheckOutcome>>();
      for (const [i, d] of descriptors.entries()) {
        const slot = slots[i];
        const field = fileFieldOf[d.inputType];
        if (field === null) {
          pending.push({ file: null, outcome: Promise.resolve({ code: null, facts: {} }) });
          continue;
        }
        const filename = (d.data as { filename: string }).filename;
        const file =
          form.files.find((f) => f.field === field && f.filename === filename && !used.has(f)) ?? null;
        if (!file) {
          const code = field === 'bank-document' ? 'bankDocument.badFileName' : 'media.notFound';
          const outcome = {
            code,
            message: `no file named "${filename}" in field "${field}"`,
            facts: {},
          } as const;
          pending.push({ file: null, outcome: Promise.resolve(outcome) });
          continue;
        }
        used.add(file);
        const otherKey = otherSideKey(slot);
        const frontHere = slot.key.endsWith(':back') && otherKey ? bySlot.get(otherKey) : undefined;
        const otherSide = frontHere
          ? frontHere.then((front) => (front.code ? undefined : front.facts))
          : Promise.resolve(accepted(otherKey));
        const outcome = otherSide
          .then((other) =>
            withTimeout((signal) =>
              runCheck(v.id, plan, d, file, other, challenge, ctx.config.demoScenarios, signal),
            ),
          )
          .catch((error: unknown): CheckOutcome => {
            request.log.error({ err: error, inputType: d.inputType }, 'input check failed');
            return { code: systemCodeOf[d.inputType], message: 'the file could not be processed', facts: {} };
          });
        bySlot.set(slot.key, outcome);
        pending.push({ file, outcome });
      }

      const results: InputResult[] = [];
      const writes: Write[] = [];
      for (const [i, d] of descriptors.entries()) {
        const slot = slots[i];
        const fail = (code: ErrorCode, message?: string): InputResult => ({
          result: false,
          data: publicData(d),
          error: { type: errorTypeOf(code), code, message: message ?? errorMessages[code] },
        });
        const outcome = await pending[i].outcome;
        // The spec's "the second is rejected until the first is successfully re-uploaded" is read
        // as the pages of one document: a back waits for its front. Every other input is checked
        // on its own, so one send reports every retake (issue 35).
        const frontKey = slot.key.endsWith(':back') ? otherSideKey(slot) : null;
        if (frontKey && state.get(frontKey)?.status === 'failed') {
          results.push(fail('documentPhoto.FirstInputNotProcessed'));
          continue;
        }
        state.set(slot.key, {
          status: outcome.code ? 'failed' : 'accepted',
          facts: outcome.facts,
        });
        const file = pending[i].file;
        const after = d.inputType === 'selfie-video' ? challengeAfter(challenge, outcome.facts) : undefined;
        writes.push({
          slot,
          descriptor: d,
          code: outcome.code,
          facts: outcome.facts,
          file: outcome.code ? null : file,
          ...(after ? { challenge: after.stored } : {}),
        });
        // (ext) The next attempt's challenge goes back with the video's answer: the wizard records
        // the retake against it.
        const next = after?.next ? { livenessChallenge: after.next } : {};
        results.push(
          outcome.code
            ? { ...fail(outcome.code, outcome.message), ...next }
            : { result: true, data: publicData(d), ...next },
        );
      }
      await commit(ctx, v, writes, adopted, request.ip);
      await lifecycle.afterInputs(v.id);
      return results;
    });
  } finally {
    await discardFiles(form.files.filter((f) => !adopted.has(f.path)).map((f) => f.path));
  }
}

/**
 * Records every attempted slot in one transaction and moves the accepted files into the media
 * store: staged before, published after the commit (MediaStore.stage).
 */
async function commit(
  ctx: ServiceContext,
  v: VerificationRow,
  writes: Write[],
  adopted: Set<string>,
  ip: string,
) {
  // Files are staged (not yet media) until the transaction that records them has committed.
  const mediaIds = new Map<Write, string>();
  const discardStaged = () => Promise.all([...mediaIds.values()].map((id) => ctx.media.discardStaged(id)));
  try {
    for (const w of writes) {
      if (!w.file) continue;
      mediaIds.set(w, await ctx.media.stage(w.file.path));
      adopted.add(w.file.path);
    }
  } catch (error) {
    await discardStaged();
    throw error;
  }
  const now = Date.now();
  const replaced: string[] = [];
  try {
    await record();
  } catch (error) {
    await discardStaged();
    throw error;
  }
  await Promise.all([...mediaIds.values()].map((id) => ctx.media.publish(id)));
  await Promise.all(replaced.map((id) => ctx.media.remove(id)));

  function record() {
    return ctx.repo.transaction(async (tx) => {
      for (const w of writes) {
        const previous = await tx.inputMediaId(v.id, w.slot.key);
        if (previous) {
          await tx.deleteMedia(previous);
          replaced.push(previous);
        }
        const mediaId = mediaIds.get(w) ?? null;
        if (mediaId && w.file) {
          await tx.insertMedia({
            id: mediaId,
            identity: v.identity,
            verificationId: v.id,
            format: w.file.format,
            size: w.file.size,
            createdAt: now,
          });
        }
        await tx.upsertInput({
          verification_id: v.id,
          slot: w.slot.key,
          position: w.slot.position,
          input_type: w.descriptor.inputType,
          status: w.code ? 'failed' : 'accepted',
          error_code: w.code,
          descriptor: JSON.stringify({ ...w.descriptor, data: publicData(w.descriptor) }),
          media_id: mediaId,
          facts: JSON.stringify(w.facts ?? {}),
          updated_at: now,
        });
      }
      for (const w of writes) if (w.challenge) await tx.update(v.id, { challenge: w.challenge });
      if (v.ip === null) await tx.setIp(v.id, ip);
    });
  }
}
