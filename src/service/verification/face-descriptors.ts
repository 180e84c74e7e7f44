import { documentSlotKey, type FlowPlan } from '@/shared/flow-plan';
import { faceDescriptorOf, videoFrames } from '../checks/face-checks';
import type { InputFacts } from '@/checks/inputs/node/types';
import type { ServiceContext } from './context';
import type { InputRow, VerificationRow } from '../storage/rows';
import { factsOf } from './step-results';

/** The descriptor of a liveness video's kept frame (the frames are taken again, as at the check). */
async function videoDescriptor(path: string, facts: InputFacts) {
  if (facts.faceFrame === undefined) return undefined;
  const frame = (await videoFrames(path, facts.durationSeconds))[facts.faceFrame];
  return frame ? await faceDescriptorOf(frame) : undefined;
}

/**
 * The face match's descriptors, taken when the verification is processed: no send-input code needs
 * one, so the send-input answers after the face count (and eyes), and a refused selfie or document
 * never costs a descriptor. Only the accepted biometric input and the accepted document fronts that
 * showed a face get one, once (it is kept in the input's facts, so a restart does not repeat it).
 * A face the descriptor model does not find again leaves that input without one: then there is no
 * facematch step, as for a document without a portrait.
 */
export async function addFaceDescriptors(ctx: ServiceContext, v: VerificationRow, plan: FlowPlan) {
  if (plan.biometric === null) return;
  const accepted = new Map(
    (await ctx.repo.inputs(v.id)).filter((i) => i.status === 'accepted').map((i) => [i.slot, i]),
  );
  const hasFace = (row: InputRow | undefined): row is InputRow =>
    !!row?.media_id && (factsOf(row).faces ?? 0) > 0;
  const biometric = accepted.get('biometric');
  const fronts = plan.documents
    .filter((d) => d.kind === 'document')
    .map((d) => accepted.get(documentSlotKey(d.group, 'front')))
    .filter(hasFace);
  if (!hasFace(biometric) || fronts.length === 0) return;
  for (const row of [biometric, ...fronts]) {
    const facts = factsOf(row);
    if (facts.faceDescriptor) continue;
    let descriptor: number[] | undefined;
    try {
      descriptor =
        (await ctx.media.withFile(row.media_id!, (file) =>
          row.input_type === 'selfie-video' ? videoDescriptor(file, facts) : faceDescriptorOf(file),
        )) ?? undefined;
    } catch (error) {
      // The input passed its checks already; without its descriptor there is no facematch step.
      ctx.log.error({ err: error, slot: row.slot }, 'no face descriptor for the face match');
    }
    if (!descriptor) continue;
    await ctx.repo.setInputFacts(v.id, row.slot, JSON.stringify({ ...facts, faceDescriptor: descriptor }));
  }
}
