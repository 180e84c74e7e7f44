import type { FlowInput } from '@/shared/contract/service-api';
import type { DeviceFingerprint, Step, VerificationData } from '@/shared/contract/verification';
import { documentSlotKey, plannedInputs, type FlowPlan } from '@/shared/flow-plan';
import type { InputRow, VerificationRow } from '../storage/rows';
import { customFieldsOf } from './build-result';
import type { ServiceContext } from './context';
import { shownStep } from './document-check-step';
import { regionOf } from './document-steps';
import {
  descriptorOf,
  isNotPerformed,
  stepKeys,
  type ProcessingResult,
  type StepResult,
} from './step-results';

function mediaUrl(ctx: ServiceContext, id: string | null | undefined) {
  return id ? `${ctx.baseUrl()}/media/${id}` : null;
}

/** Media ids kept in a step's data, and the URL keys the hosted API gives them. */
const mediaKeys = { videoMedia: 'videoUrl', spriteMedia: 'spriteUrl', selfieMedia: 'selfieUrl' } as const;
/** The selfie-photo step names its photo `selfiePhotoUrl` (a liveness step's still is `selfieUrl`). */
const selfieStepMediaKeys = { selfieMedia: 'selfiePhotoUrl' } as const;

export const renderStep = (ctx: ServiceContext, step: StepResult, done: boolean, running: boolean): Step => {
  if (!done) return { id: step.id, status: running ? 100 : 0, data: {}, error: null };
  const data = { ...step.data };
  for (const [key, urlKey] of Object.entries(step.id === 'selfie' ? selfieStepMediaKeys : mediaKeys)) {
    if (key in data) {
      const url = mediaUrl(ctx, data[key] as string | null);
      delete data[key];
      data[urlKey] = url;
    }
  }
  const { notApplicable: _notApplicable, ...wire } = step;
  return { ...wire, data, reused: false, cacheHit: false };
};

/** GET /v2/verifications/{id}, in the hosted API's shape (verificationDataSchema). */
export function verificationView(
  ctx: ServiceContext,
  v: VerificationRow,
  inputs: InputRow[],
): VerificationData & { inputs: FlowInput[]; createdAt: string; updatedAt: string } {
  const plan = ctx.plans.get(v.flow_id)!;
  const result = v.result ? (JSON.parse(v.result) as ProcessingResult) : null;
  const accepted = new Map(inputs.filter((i) => i.status === 'accepted').map((i) => [i.slot, i]));
  const inputList = inputsView(plan, inputs, ctx.config.extensions);
  const base = {
    id: v.id,
    expired: v.expired === 1,
    flow: { id: plan.flow.id, name: plan.flow.name },
    identity: { id: v.identity, status: v.status },
    metadata: v.metadata ? (JSON.parse(v.metadata) as Record<string, unknown>) : {},
    deviceFingerprint: deviceFingerprintOf(v),
    inputs: inputList,
    createdAt: new Date(v.created_at).toISOString(),
    updatedAt: new Date(v.updated_at).toISOString(),
  };
  const waitingForRetake = inputList.some((i) => i.status === 100);
  if (!result) {
    // Not started: the steps to come, and the documents received so far.
    const documents = plan.documents.flatMap((d) => {
      const front = accepted.get(documentSlotKey(d.group, 'front'));
      if (!front) return [];
      const back = accepted.get(documentSlotKey(d.group, 'back'));
      const data = descriptorOf(front).data;
      return [
        {
          type: String(data.type),
          country: d.kind === 'custom' ? '' : String(data.country),
          region: regionOf(String(data.type), data),
          photos: [front.media_id, back?.media_id].flatMap((m) => (m ? [mediaUrl(ctx, m)!] : [])),
          steps: [],
          fields: {},
        },
      ];
    });
    return {
      ...base,
      steps: [],
      documents,
      computed: null,
      hasProblem: waitingForRetake,
      financialInformation: null,
      // The answers are shown as soon as they are in, as the documents received are.
      customFields: customFieldsOf(accepted.get('custom-fields')),
    };
  }
  const done = new Set(result.done);
  const keys = stepKeys(result);
  const runningKey = v.status === 'running' ? keys.find((k) => !done.has(k)) : undefined;
  const steps = result.steps.map((s) =>
    renderStep(ctx, s, done.has(`steps.${s.id}`), runningKey === `steps.${s.id}`),
  );
  const documents = result.documents.map((d, i) => {
    const docSteps = d.steps
      .filter((s) => shownStep(s, ctx.config.extensions))
      .map((s) =>
        s.id === 'document-reading' && !ctx.config.extensions ? { ...s, data: withoutSources(s.data) } : s,
      )
      .map((s) =>
        renderStep(ctx, s, done.has(`documents.${i}.${s.id}`), runningKey === `documents.${i}.${s.id}`),
      );
    // The read fields show once document reading is done, as in its step.
    const read = docSteps.find((s) => s.id === 'document-reading')?.status === 200;
    return {
      type: d.type,
      country: d.country,
      region: d.region,
      photos: d.media.map((m) => mediaUrl(ctx, m)!),
      steps: docSteps,
      fields: read ? (ctx.config.extensions ? d.fields : withoutSources(d.fields)) : {},
    };
  });
  const finished = v.status !== 'running';
  return {
    ...base,
    steps,
    documents,
    computed: finished ? result.computed : null,
    hasProblem:
      waitingForRetake ||
      [...steps, ...documents.flatMap((d) => d.steps)].some(
        (s) => !!s.error && !isNotPerformed(s.error.code),
      ),
    financialInformation: finished ? result.financialInformation : null,
    // Once processed, the answers are ours to show (ext): the hosted API's data has no such key.
    ...(ctx.config.extensions ? { customFields: result.customFields } : {}),
  } as VerificationData & { inputs: FlowInput[]; createdAt: string; updatedAt: string };
}

/** Read fields as the hosted API shows them: without where each was read (`source`, ext). */
function withoutSources<T extends Record<string, unknown>>(fields: T): T {
  return Object.fromEntries(
    Object.entries(fields).map(([key, field]) => {
      if (!field || typeof field !== 'object' || !('source' in field)) return [key, field];
      const { source: _source, ...rest } = field as Record<string, unknown>;
      return [key, rest];
    }),
  ) as T;
}

/** What the hosted API reports of the device that created the verification. */
export function deviceFingerprintOf(v: VerificationRow): DeviceFingerprint {
  return { ua: v.ua ?? null, ip: v.ip ?? null, vpnDetectionEnabled: false };
}

/**
 * The flow's inputs with 0 (missing), 100 (failed, waiting for a retake) or 200 (accepted);
 * `connection-data` (the device's address and agent) is in from the creation on. A failed
 * input's `errorCode` is ours (wire contract §6, ext): only with the extensions on.
 */
export function inputsView(plan: FlowPlan, inputs: InputRow[], extensions = false): FlowInput[] {
  const errorOf = (row: InputRow) => (extensions && row.error_code ? { errorCode: row.error_code } : {});
  const bySlot = new Map(inputs.map((i) => [i.slot, i]));
  const statusOf = (slot: string) => {
    const row = bySlot.get(slot);
    return row?.status === 'failed' ? 100 : row?.status === 'accepted' ? 200 : 0;
  };
  const planned = plannedInputs(plan).map((input): FlowInput => {
    if (input.group !== undefined) {
      const front = bySlot.get(documentSlotKey(input.group, 'front'));
      const back = bySlot.get(documentSlotKey(input.group, 'back'));
      const failed = [front, back].find((row) => row?.status === 'failed');
      if (failed) return { ...input, status: 100, ...errorOf(failed) };
      return { ...input, status: front?.status === 'accepted' ? 200 : 0 };
    }
    const slot =
      input.id === 'custom-fields'
        ? 'custom-fields'
        : input.id === 'financial-information-bank-statement-parsing-request'
          ? 'bank-statement'
          : 'biometric';
    const row = bySlot.get(slot);
    return { ...input, status: statusOf(slot), ...(row?.status === 'failed' ? errorOf(row) : {}) };
  });
  return [{ id: 'connection-data', status: 200 }, ...planned];
}
