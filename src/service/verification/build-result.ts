import type { FinalStatus } from '@/shared/contract/verification';
import { backOf, documentSlotKey, type FlowPlan } from '@/shared/flow-plan';
import { faceMatch } from '@/checks/face/node/face-match';
import type { InputFacts } from '@/checks/inputs/node/types';
import { isExpired } from '@/checks/mrz/document-reading';
import type { InputRow, VerificationRow } from '../storage/rows';
import { documentSteps, fieldsOf, mergeSides, regionOf } from './document-steps';
import {
  descriptorOf,
  factsOf,
  failed,
  isNotPerformed,
  ok,
  type DocumentResult,
  type MatchOutcome,
  type ProcessingResult,
  type StepResult,
} from './step-results';

/** The accepted inputs of a verification, by slot (`slotKeyOf`). */
type Accepted = Map<string, InputRow>;

/** Steps whose error rejects the verification; any other step error asks for a review. */
const rejectingCodes = new Set([
  'watchlists.matchFound',
  'mexican-curp-validation.mismatch',
  'mexican-rfc-validation.mismatch',
]);

export function ageOn(dateOfBirth: string, now: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < mo || (now.getUTCMonth() + 1 === mo && now.getUTCDate() < d)) age--;
  return age;
}

/**
 * Everything processing finds, computed at once when the verification starts: the biometric
 * step, the address, each document's steps and fields, what is computed from them, the bank
 * statement, and the final status from all of it.
 */
export function buildResult(
  plan: FlowPlan,
  v: VerificationRow,
  inputs: InputRow[],
  options: { now?: Date; demo?: boolean } = {},
): ProcessingResult {
  const now = options.now ?? new Date();
  const demo = options.demo ?? false;
  const accepted: Accepted = new Map(inputs.filter((i) => i.status === 'accepted').map((i) => [i.slot, i]));
  const customFields = customFieldsOf(accepted.get('custom-fields'));
  const biometric = accepted.get('biometric');
  const steps = [...biometricSteps(plan, v, biometric), ipValidation(v)];
  const documents = plan.documents.flatMap((planned) => {
    const document = documentResult(planned, accepted, plan.biometric !== null ? biometric : undefined, {
      customFields,
      demo,
    });
    return document ? [document] : [];
  });
  const computed = computedOf(documents, now);
  const bank = accepted.get('bank-statement');
  const financialInformation = plan.bank ? { bankStatement: factsOf(bank).bankStatement } : null;
  // A statement accepted unread (its reading ran out of time) proves nothing: a review (ext).
  const statementUnread = bank ? factsOf(bank).notChecked?.pdf : undefined;
  if (statementUnread) {
    steps.push(
      failed('bank-statement', 'bank-statement.notChecked', `the statement was not read: ${statementUnread}`),
    );
  }
  return {
    steps,
    documents,
    computed,
    financialInformation,
    customFields,
    finalStatus: finalStatusOf(plan, accepted, [...steps, ...documents.flatMap((d) => d.steps)], computed),
    done: [],
  };
}

/** The liveness step of a selfie video, or the selfie step of a selfie photo (none without either). */
function biometricSteps(plan: FlowPlan, v: VerificationRow, biometric: InputRow | undefined): StepResult[] {
  const biometricFacts = factsOf(biometric);
  const facesNotChecked = biometric ? biometricFacts.notChecked?.faces : undefined;
  if (plan.biometric === 'selfie-video') {
    const { frames, challenge } = biometricFacts;
    const data = {
      videoMedia: biometric?.media_id ?? null,
      spriteMedia: frames?.spriteMedia ?? null,
      selfieMedia: frames?.selfieMedia ?? null,
    };
    // Frames never looked at, or an asked challenge that could not be looked for, are no proof
    // of life: staff review it.
    const unchecked = v.challenge && biometric && challenge?.result !== 'passed';
    // The last attempt failed too (or none was left): the video was kept for staff to judge.
    const challengeFailed = unchecked && challenge?.result === 'failed';
    if (facesNotChecked)
      return [
        failed('liveness', 'liveness.notChecked', `the video was not checked: ${facesNotChecked}`, data),
      ];
    if (challengeFailed)
      return [
        failed(
          'liveness',
          'liveness.challengeFailed',
          `the active liveness challenge failed on its last attempt: ${challenge.reason ?? 'the movements were not seen'}`,
          data,
        ),
      ];
    if (unchecked)
      return [
        failed(
          'liveness',
          'liveness.challengeNotChecked',
          `the active liveness challenge was not checked: ${challenge?.reason ?? 'the video was not looked into'}`,
          data,
        ),
      ];
    return [ok('liveness', data)];
  }
  if (plan.biometric === 'selfie-photo') {
    const data = { selfieMedia: biometric?.media_id ?? null };
    return [
      facesNotChecked
        ? failed('selfie', 'selfie.notChecked', `the selfie was not checked: ${facesNotChecked}`, data)
        : ok('selfie', data),
    ];
  }
  return [];
}

/** The address of the creation: whether it is local (no lookup of its country here). */
function ipValidation(v: VerificationRow): StepResult {
  const ip = v.ip ?? null;
  const isLocal = !ip || /^(127\.|10\.|192\.168\.|::1$|::ffff:127\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip);
  return ok('ip-validation', { ip, country: null, isLocal, isProxy: false, synthetic: true });
}

/**
 * One planned document whose front is in: its steps and read fields (both sides merged), or its
 * PDF's reading for a custom document. `biometric`: the input a document's portrait is matched with.
 */
function documentResult(
  planned: FlowPlan['documents'][number],
  accepted: Accepted,
  biometric: InputRow | undefined,
  options: { customFields: Record<string, string> | null; demo: boolean },
): DocumentResult | null {
  const front = accepted.get(documentSlotKey(planned.group, 'front'));
  if (!front) return null;
  const back = accepted.get(documentSlotKey(planned.group, 'back'));
  const media = [front.media_id, back?.media_id].filter((m): m is string => !!m);
  const data = descriptorOf(front).data;
  const frontFacts = factsOf(front);
  if (planned.kind === 'custom') {
    // A PDF whose reading could not be done (checks/inputs/, notCheckedPdf) was accepted unread: review.
    const unread = frontFacts.notChecked?.pdf;
    return {
      type: String(data.type),
      country: '',
      region: null,
      group: planned.group,
      media,
      steps: unread
        ? [failed('document-reading', 'document-reading.notChecked', `the PDF was not read: ${unread}`)]
        : [],
      fields: {},
    };
  }
  const person = frontFacts.person ?? factsOf(back).person;
  // The back's zone may add fields the front has not (the INE's OCR number): extras merge too.
  const backPerson = factsOf(back).person;
  const extra = { ...backPerson?.extra, ...person?.extra };
  const { merged, sources } = mergeSides(
    person ? { ...person, ...(Object.keys(extra).length ? { extra } : {}) } : undefined,
    frontFacts.personSources,
    backPerson,
    factsOf(back).personSources,
  );
  const country = String(data.country);
  const type = String(data.type);
  return {
    type,
    country,
    region: regionOf(type, data),
    group: planned.group,
    media,
    steps: documentSteps(
      merged,
      country,
      type,
      biometric ? matchOutcome(factsOf(biometric), frontFacts) : undefined,
      options.customFields,
      options.demo,
      // A document's checks are recorded on its front's facts (they look at both sides).
      frontFacts.documentChecks ?? {},
      sources,
      frontFacts.notChecked?.printedFields,
    ),
    fields: fieldsOf(merged, type, country, sources),
  };
}

/** The holder's age (from the first document that gives a birth date) and each document type's expiry. */
function computedOf(documents: DocumentResult[], now: Date): ProcessingResult['computed'] {
  let age: number | null = null;
  const expired: Record<string, boolean | null> = {};
  for (const doc of documents) {
    if (doc.country === '') continue;
    const dob = doc.fields.dateOfBirth?.value;
    if (age === null && typeof dob === 'string') age = ageOn(dob, now);
    const expiry = doc.fields.expirationDate?.value;
    if (!(doc.type in expired)) {
      // A proof of residency states no validity: the hosted API counts it as not expired.
      expired[doc.type] =
        typeof expiry === 'string'
          ? isExpired(expiry, now)
          : doc.type === 'proof-of-residency'
            ? false
            : null;
    }
  }
  return { age: { data: age }, isDocumentExpired: { data: expired } };
}

/**
 * Rejected on a rejecting step error; reviewed on any other error (a step not performed alone
 * does not count), an expired document, a minor, or a two-sided document without its back.
 */
function finalStatusOf(
  plan: FlowPlan,
  accepted: Accepted,
  steps: StepResult[],
  computed: ProcessingResult['computed'],
): FinalStatus {
  const allErrors = steps.flatMap((s) => (s.error ? [s.error.code] : []));
  const missingBack = plan.documents.some(
    (d) =>
      accepted.has(documentSlotKey(d.group, 'front')) &&
      !accepted.has(documentSlotKey(d.group, 'back')) &&
      needsBack(d, accepted),
  );
  const age = computed.age.data;
  if (allErrors.some((c) => rejectingCodes.has(c))) return 'rejected';
  return allErrors.some((c) => !isNotPerformed(c)) ||
    Object.values(computed.isDocumentExpired.data).includes(true) ||
    (age !== null && age < 18) ||
    missingBack
    ? 'reviewNeeded'
    : 'verified';
}

/**
 * The face match of a document front against the biometric input: the score, or why it could not
 * be computed where it should have been (a face check or a descriptor that could not run on
 * either side of a document that has a portrait), or nothing (no portrait to compare).
 */
function matchOutcome(biometric: InputFacts, front: InputFacts): MatchOutcome {
  const match = faceMatch(biometric, front);
  if (match) return match;
  const hasPortrait = (front.faces ?? 0) > 0 || front.notChecked?.faces !== undefined;
  if (!hasPortrait) return undefined;
  const why =
    biometric.notChecked?.faces ??
    biometric.notChecked?.faceMatch ??
    front.notChecked?.faces ??
    front.notChecked?.faceMatch;
  return why ? { notChecked: why } : undefined;
}

/** The custom-field answers of an accepted custom-fields input, by field name. */
export function customFieldsOf(row: InputRow | undefined): Record<string, string> | null {
  if (!row) return null;
  const fields = descriptorOf(row).data.fields as { name: string; atomicFieldParams: { value: string } }[];
  return Object.fromEntries(fields.map((f) => [f.name, f.atomicFieldParams.value]));
}

/** A two-sided document started without its back (after a skip) is reviewed by a person. */
function needsBack(planned: FlowPlan['documents'][number], accepted: Accepted) {
  const front = accepted.get(documentSlotKey(planned.group, 'front'));
  if (!front) return false;
  return (
    backOf(planned, descriptorOf(front).data as { type: string; country?: string; page?: string }) === 'two'
  );
}
