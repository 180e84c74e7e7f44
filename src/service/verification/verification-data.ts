import type { FlowInput } from '@/shared/contract/service-api';
import type {
  DeviceFingerprint,
  DocumentField,
  FinalStatus,
  Step,
  VerificationData,
} from '@/shared/contract/verification';
import { faceMatch, FACE_MATCH_PASS_MARK, type FaceMatch } from '@/checks/face/node/face-match';
import type { DocumentCheckOutcomes } from '@/checks/inputs/node/document-check-outcome';
import type { InputFacts, Person } from '@/checks/inputs/node/types';
import type { ServiceContext } from './context';
import { documentCheckStep, shownStep } from './document-check-step';
import type { InputRow, VerificationRow } from '../storage/rows';
import { isExpired } from '@/checks/mrz/document-reading';
import { documentType } from '@/shared/flow';
import { backOf, documentSlotKey, plannedInputs, type FlowPlan } from '@/shared/flow-plan';

type StepStatus = 0 | 100 | 200;
export interface StepResult {
  id: string;
  status: StepStatus;
  data: Record<string, unknown>;
  error: { type: string; code: string; message: string } | null;
  /**
   * A document check not performed for this document (document-check-step.ts): left out of the
   * hosted shape, shown with the extensions only. Never on the wire.
   */
  notApplicable?: true;
}
/** A read field as the hosted API names and describes it. */
type ReadField = DocumentField;
interface DocumentResult {
  type: string;
  country: string;
  region: string | null;
  group: number;
  /** Media ids; turned into URLs when the data is read, so that a changed PUBLIC_URL applies. */
  media: string[];
  steps: StepResult[];
  fields: Record<string, ReadField>;
}
export interface ProcessingResult {
  steps: StepResult[];
  documents: DocumentResult[];
  computed: { age: { data: number | null }; isDocumentExpired: { data: Record<string, boolean | null> } };
  financialInformation: { bankStatement?: unknown } | null;
  customFields: Record<string, string> | null;
  finalStatus: FinalStatus;
  /** Keys (see stepKeys) of the steps already completed. */
  done: string[];
}

/**
 * The facts read from a document → the hosted API's field keys and labels. The labels of
 * fullName, documentNumber, dateOfBirth, expirationDate, emissionDate, address, curp and cde are
 * those of the hosted API's recorded answers; the others follow their style.
 */
const wireFields: Record<keyof Omit<Person, 'extra'>, { key: string; label: string }> = {
  fullName: { key: 'fullName', label: 'Name' },
  firstName: { key: 'firstName', label: 'First Name' },
  lastName: { key: 'surname', label: 'Surname' },
  dateOfBirth: { key: 'dateOfBirth', label: 'Day of Birth' },
  documentNumber: { key: 'documentNumber', label: 'Document Number' },
  expiryDate: { key: 'expirationDate', label: 'Date of Expiration' },
  issueDate: { key: 'emissionDate', label: 'Emission Date' },
  nationality: { key: 'nationality', label: 'Nationality' },
  sex: { key: 'sex', label: 'Sex' },
  address: { key: 'address', label: 'Address' },
  curp: { key: 'curp', label: 'CURP' },
  rfc: { key: 'rfc', label: 'RFC' },
  cuit: { key: 'cuit', label: 'CUIT' },
  cpf: { key: 'cpf', label: 'CPF' },
};
const dateFields = new Set(['dateOfBirth', 'expirationDate', 'emissionDate']);
/**
 * The hosted API marks the holder's name on an identity document sensitive (in its recorded
 * answers nothing else, and not the name on a proof of residency).
 */
const sensitiveFields = new Set(['fullName']);
/** Labels of fields a sample's marker may carry beyond the common ones. */
const extraLabels: Record<string, string> = {
  cde: 'Elector Key',
  ocrNumber: 'OCR Number',
  emissionNumber: 'Emission Number',
};
/**
 * A Mexican voter card's elector key (clave de elector): 6 letters of the name, the birth date
 * (YYMMDD), the state of birth (2 digits), H or M, and 3 more digits.
 */
const electorKey = /^[A-Z]{6}\d{8}[HM]\d{3}$/;
/**
 * What the hosted API reads from a proof of residency, whatever the document shows: the holder's
 * name (required: a client reports a reading without it), the address and the emission date.
 */
const residencyFields = ['fullName', 'address', 'emissionDate'] as const;

export function ageOn(dateOfBirth: string, now: Date): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < mo || (now.getUTCMonth() + 1 === mo && now.getUTCDate() < d)) age--;
  return age;
}

const ok = (id: string, data: Record<string, unknown> = {}): StepResult => ({
  id,
  status: 200,
  data,
  error: null,
});
const failed = (
  id: string,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
): StepResult => ({
  id,
  status: 200,
  data,
  error: { type: 'StepError', code, message },
});

/**
 * A step whose check did not run here: the embedded service has no watch list, no document
 * template or alteration model and no government registry to ask (the hosted service has them).
 * It is reported as not performed, with the reason, and never as passed: the step carries an
 * error `<step>.notPerformed` (its `data` says `performed: false`). Such a step alone does not
 * decide the verification (every verification would otherwise end in review); a check that should
 * have run and could not (`.notChecked`) does.
 */
const notPerformed = (id: string, reason: string, data: Record<string, unknown> = {}): StepResult =>
  failed(id, `${id}.notPerformed`, reason, { ...data, performed: false });
const isNotPerformed = (code: string) => code.endsWith('.notPerformed');

/** Reasons a step was not performed, for staff (the console translates the code, shows this too). */
const notPerformedReasons = {
  watchlists: 'no watch list is configured in the embedded service',
  registry: 'the embedded service cannot ask the government registry',
};

/** Steps whose error rejects the verification; any other step error asks for a review. */
const rejectingCodes = new Set([
  'watchlists.matchFound',
  'mexican-curp-validation.mismatch',
  'mexican-rfc-validation.mismatch',
]);

/** Names that the synthetic watch-list matches (documented in the service README). */
const syntheticWatchlist = /\bsanction(ed)?\b/i;

/** How a document's face match went: computed, could not run (why), or not applicable. */
type MatchOutcome = FaceMatch | { notChecked: string } | undefined;

function documentSteps(
  person: Person | undefined,
  country: string,
  type: string,
  match: MatchOutcome,
  customFields: Record<string, string> | null,
  demo: boolean,
  checks: DocumentCheckOutcomes,
  sources: InputFacts['personSources'] = {},
  /** Why the front's printed fields could not be read (their OCR did not run): a review. */
  unreadPrint?: string,
): StepResult[] {
  const steps: StepResult[] = [];
  steps.push(
    unreadPrint
      ? failed(
          'document-reading',
          'document-reading.notChecked',
          `the printed fields were not read: ${unreadPrint}`,
          fieldsOf(person, type, country, sources),
        )
      : person
        ? ok('document-reading', fieldsOf(person, type, country, sources))
        : failed(
            'document-reading',
            'document-reading.noFields',
            'No field could be read from the document.',
            fieldsOf(undefined, type, country),
          ),
  );
  // Computed from face descriptors (checks/face-match.ts); no step when there is no portrait.
  if (match && 'notChecked' in match) {
    steps.push(
      failed(
        'facematch',
        'facematch.notChecked',
        `the face match could not be computed: ${match.notChecked}`,
      ),
    );
  } else if (match) {
    // (ext) The pass mark beside the score, so that a failed score says how far it fell short.
    const data = { score: match.score, passMark: FACE_MATCH_PASS_MARK };
    steps.push(
      match.passed
        ? ok('facematch', data)
        : match.samePortrait
          ? failed(
              'facematch',
              'facematch.samePortrait',
              "the selfie's face is the document's own printed portrait, not a picture of the person",
              data,
            )
          : failed(
              'facematch',
              'facematch.mismatch',
              'the selfie does not match the document portrait',
              data,
            ),
    );
  }
  const name = person?.fullName ?? '';
  // The demo's watch list (DEMO_SCENARIOS=on) is a real look-up in a synthetic list, said so.
  steps.push(
    !demo
      ? notPerformed('watchlists', notPerformedReasons.watchlists)
      : syntheticWatchlist.test(name)
        ? failed('watchlists', 'watchlists.matchFound', 'the name matches a (synthetic) watch-list entry', {
            lists: [{ name: 'Synthetic demo list', matched: true }],
            synthetic: true,
          })
        : ok('watchlists', { lists: [{ name: 'Synthetic demo list', matched: false }], synthetic: true }),
  );
  // A check not built for this document yet is not performed, whatever DEMO_SCENARIOS says:
  // neither a real pass nor a synthetic one.
  const documentName = `${type} (${country})`;
  steps.push(
    documentCheckStep(
      'alteration-detection',
      checks['alteration-detection'] ?? {
        performed: false,
        reason: `the embedded service has no alteration detection for ${documentName}`,
      },
    ),
  );
  steps.push(
    documentCheckStep(
      'template-matching',
      checks['template-matching'] ?? {
        performed: false,
        reason: `the embedded service knows no template of ${documentName}`,
      },
    ),
  );
  // Registry checks concern identity documents, not a utility bill.
  const identityDocument = type !== 'proof-of-residency';
  if (country === 'MX' && identityDocument) {
    for (const key of ['curp', 'rfc'] as const) {
      const id = `mexican-${key}-validation`;
      const read = person?.[key];
      const given = customFields?.[key];
      if (read && given && read.toUpperCase() !== given.toUpperCase()) {
        steps.push(
          failed(id, `${id}.mismatch`, `the ${key.toUpperCase()} on the document differs from the one given`),
        );
      } else if (!read && !given) {
        steps.push(failed(id, `${id}.notFound`, `no ${key.toUpperCase()} to validate`));
      } else if (!demo) {
        steps.push(notPerformed(id, notPerformedReasons.registry));
      } else {
        // Demo scenarios only: what a registry would answer, made up from the document and said so.
        const value = (read ?? given)!.toUpperCase();
        steps.push(
          ok(
            id,
            key === 'curp'
              ? { ...curpRegistryEntry(value, person), synthetic: true }
              : { rfc: value, fullName: person?.fullName ?? null, synthetic: true },
          ),
        );
      }
    }
    if (type === 'national-id') {
      steps.push(
        person?.documentNumber && !demo
          ? notPerformed('mexican-ine-validation', notPerformedReasons.registry)
          : person?.documentNumber
            ? ok('mexican-ine-validation', {
                documentNumber: person.documentNumber,
                valid: true,
                synthetic: true,
              })
            : failed(
                'mexican-ine-validation',
                'mexican-ine-validation.noDocumentNumber',
                'no document number was read',
              ),
      );
    }
  }
  if (country === 'AR' && identityDocument) {
    steps.push(
      person?.documentNumber && !demo
        ? notPerformed('argentinian-govcheck-validation', notPerformedReasons.registry)
        : person?.documentNumber
          ? ok('argentinian-govcheck-validation', {
              dni: person.documentNumber,
              fullName: person.fullName,
              dateOfBirth: person.dateOfBirth ?? null,
              cuit: person.cuit ?? null,
              synthetic: true,
            })
          : failed(
              'argentinian-govcheck-validation',
              'argentinian-govcheck-validation.notFound',
              'no DNI was read, so the registry could not be asked',
            ),
    );
  }
  return steps;
}

/**
 * The person of a document's two sides: the front's, with what only the back gives; where the
 * front's value was read from its print only, a zone's or barcode's of the back wins (the print
 * fills what no zone or barcode gives). Each fact keeps where it was read.
 */
function mergeSides(
  front: Person | undefined,
  frontSources: InputFacts['personSources'],
  back: Person | undefined,
  backSources: InputFacts['personSources'],
) {
  if (!front) return { merged: undefined, sources: frontSources ?? backSources ?? {} };
  const merged: Person = { ...back, ...front };
  const sources = { ...backSources, ...frontSources };
  for (const key of Object.keys(wireFields) as (keyof typeof wireFields)[]) {
    const backValue = back?.[key];
    if (frontSources?.[key] === 'print' && backValue && backSources?.[key] !== 'print') {
      merged[key] = backValue;
      sources[key] = backSources?.[key];
    }
  }
  return { merged, sources };
}

function fieldsOf(
  person: Person | undefined,
  type: string,
  country: string,
  sources: InputFacts['personSources'] = {},
): DocumentResult['fields'] {
  const fields: DocumentResult['fields'] = {};
  const sourceOf = (key: string) =>
    Object.entries(wireFields).find(([, wire]) => wire.key === key)?.[0] as
      keyof typeof wireFields | undefined;
  const put = (key: string, value: string | null, label: string) => {
    const fact = sourceOf(key);
    const source = fact ? sources?.[fact] : undefined;
    fields[key] = {
      value,
      label,
      ...(source && value !== null ? { source } : {}),
      ...(dateFields.has(key) ? { format: 'date' as const } : {}),
      ...(sensitiveFields.has(key) && type !== 'proof-of-residency' ? { sensitive: true } : {}),
    };
  };
  for (const [fact, { key, label }] of Object.entries(wireFields)) {
    const value = person?.[fact as keyof typeof wireFields];
    if (typeof value === 'string') put(key, value, label);
  }
  for (const [key, value] of Object.entries(person?.extra ?? {}))
    if (!(key in fields)) put(key, value, extraLabels[key] ?? key);
  // On a voter card the number read may be its elector key, which clients look for as `cde`.
  const number = person?.documentNumber?.toUpperCase();
  if (type === 'national-id' && country === 'MX' && !fields.cde && number && electorKey.test(number))
    put('cde', number, extraLabels.cde);
  if (type === 'proof-of-residency') {
    for (const key of residencyFields) {
      if (!fields[key]) put(key, null, Object.values(wireFields).find((f) => f.key === key)!.label);
    }
    fields.fullName = { ...fields.fullName, required: true };
  }
  return fields;
}

/** `01/01/1980` (DD/MM/YYYY), the registry's date form, from `1980-01-01`. */
const registryDate = (iso: string | undefined) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : null;
};

/**
 * What the (synthetic) CURP registry answers, in the hosted API's keys: the names as the document
 * read them (first surname, second surname, given names) and what the CURP itself encodes: the
 * birth date (YYMMDD; a letter in position 17 means born from 2000 on), the sex (H, M) and the
 * state of birth (NE: born abroad).
 */
function curpRegistryEntry(curp: string, person: Person | undefined) {
  const surnames = (person?.lastName ?? '').trim().split(/\s+/).filter(Boolean);
  const surname = surnames[0] ?? '';
  const secondSurname = surnames.slice(1).join(' ');
  const name = person?.firstName?.trim() ?? '';
  const m = /^[A-Z]{4}(\d{2})(\d{2})(\d{2})([HMX])([A-Z]{2})[A-Z]{3}([A-Z0-9])\d$/.exec(curp);
  const birthDate = m
    ? `${m[3]}/${m[2]}/${/\d/.test(m[6]) ? '19' : '20'}${m[1]}`
    : registryDate(person?.dateOfBirth);
  const gender = m ? { H: 'HOMBRE', M: 'MUJER', X: 'NO BINARIO' }[m[4]]! : null;
  const nationality = m ? (m[5] === 'NE' ? 'EXTRANJERO' : 'MEXICO') : null;
  return {
    curp,
    fullName: [surname, secondSurname, name].filter(Boolean).join(' ') || (person?.fullName ?? null),
    birthDate,
    gender,
    nationality,
    surname,
    secondSurname,
    name,
  };
}

/**
 * A document's region as the hosted API reports it: on an identity document always a string, the
 * region sent or `""` (its recorded INE answers `"region": ""`, and mati-python types the field
 * `str`); on a proof of residency the region sent, or null as recorded; a custom document has none.
 */
function regionOf(type: string, data: Record<string, unknown>): string | null {
  const given = typeof data.region === 'string' ? data.region : '';
  return documentType.safeParse(type).success && type !== 'proof-of-residency' ? given : given || null;
}

/** What an input's checks recorded (none for a missing input). */
export const factsOf = (row: InputRow | undefined): InputFacts =>
  row?.facts ? (JSON.parse(row.facts) as InputFacts) : {};
const descriptorOf = (row: InputRow) => JSON.parse(row.descriptor) as { data: Record<string, unknown> };

/** Everything processing finds, computed at once when the verification starts. */
export function buildResult(
  plan: FlowPlan,
  v: VerificationRow,
  inputs: InputRow[],
  options: { now?: Date; demo?: boolean } = {},
): ProcessingResult {
  const now = options.now ?? new Date();
  const demo = options.demo ?? false;
  const accepted = new Map(inputs.filter((i) => i.status === 'accepted').map((i) => [i.slot, i]));
  const customFields = customFieldsOf(accepted.get('custom-fields'));

  const steps: StepResult[] = [];
  const biometric = accepted.get('biometric');
  const biometricFacts = factsOf(biometric);
  if (plan.biometric === 'selfie-video') {
    const { frames, challenge } = biometricFacts;
    const data = {
      videoMedia: biometric?.media_id ?? null,
      spriteMedia: frames?.spriteMedia ?? null,
      selfieMedia: frames?.selfieMedia ?? null,
    };
    // Frames never looked at, or an asked challenge that could not be looked for, are no proof
    // of life: staff review it.
    const facesNotChecked = biometric ? biometricFacts.notChecked?.faces : undefined;
    const unchecked = v.challenge && biometric && challenge?.result !== 'passed';
    // The last attempt failed too (or none was left): the video was kept for staff to judge.
    const challengeFailed = unchecked && challenge?.result === 'failed';
    steps.push(
      facesNotChecked
        ? failed('liveness', 'liveness.notChecked', `the video was not checked: ${facesNotChecked}`, data)
        : challengeFailed
          ? failed(
              'liveness',
              'liveness.challengeFailed',
              `the active liveness challenge failed on its last attempt: ${challenge.reason ?? 'the movements were not seen'}`,
              data,
            )
          : unchecked
            ? failed(
                'liveness',
                'liveness.challengeNotChecked',
                `the active liveness challenge was not checked: ${challenge?.reason ?? 'the video was not looked into'}`,
                data,
              )
            : ok('liveness', data),
    );
  } else if (plan.biometric === 'selfie-photo') {
    const data = { selfieMedia: biometric?.media_id ?? null };
    const facesNotChecked = biometric ? biometricFacts.notChecked?.faces : undefined;
    steps.push(
      facesNotChecked
        ? failed('selfie', 'selfie.notChecked', `the selfie was not checked: ${facesNotChecked}`, data)
        : ok('selfie', data),
    );
  }
  const ip = v.ip ?? null;
  const isLocal = !ip || /^(127\.|10\.|192\.168\.|::1$|::ffff:127\.|172\.(1[6-9]|2\d|3[01])\.)/.test(ip);
  steps.push(ok('ip-validation', { ip, country: null, isLocal, isProxy: false, synthetic: true }));

  const documents: DocumentResult[] = [];
  for (const planned of plan.documents) {
    const front = accepted.get(documentSlotKey(planned.group, 'front'));
    if (!front) continue;
    const back = accepted.get(documentSlotKey(planned.group, 'back'));
    const media = [front.media_id, back?.media_id].filter((m): m is string => !!m);
    const data = descriptorOf(front).data;
    if (planned.kind === 'custom') {
      // A PDF whose reading could not be done (checks/check-input.ts) was accepted unread: review.
      const unread = factsOf(front).notChecked?.pdf;
      documents.push({
        type: String(data.type),
        country: '',
        region: null,
        group: planned.group,
        media,
        steps: unread
          ? [failed('document-reading', 'document-reading.notChecked', `the PDF was not read: ${unread}`)]
          : [],
        fields: {},
      });
      continue;
    }
    const person = factsOf(front).person ?? factsOf(back).person;
    // The back's zone may add fields the front has not (the INE's OCR number): extras merge too.
    const backPerson = factsOf(back).person;
    const extra = { ...backPerson?.extra, ...person?.extra };
    const { merged, sources } = mergeSides(
      person ? { ...person, ...(Object.keys(extra).length ? { extra } : {}) } : undefined,
      factsOf(front).personSources,
      backPerson,
      factsOf(back).personSources,
    );
    const unreadPrint = factsOf(front).notChecked?.printedFields;
    const country = String(data.country);
    const type = String(data.type);
    documents.push({
      type,
      country,
      region: regionOf(type, data),
      group: planned.group,
      media,
      steps: documentSteps(
        merged,
        country,
        type,
        plan.biometric !== null && biometric ? matchOutcome(biometricFacts, factsOf(front)) : undefined,
        customFields,
        demo,
        // A document's checks are recorded on its front's facts (they look at both sides).
        factsOf(front).documentChecks ?? {},
        sources,
        unreadPrint,
      ),
      fields: fieldsOf(merged, type, country, sources),
    });
  }

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

  const bank = accepted.get('bank-statement');
  const financialInformation = plan.bank ? { bankStatement: factsOf(bank).bankStatement } : null;
  // A statement accepted unread (its reading ran out of time) proves nothing: a review (ext).
  const statementUnread = bank ? factsOf(bank).notChecked?.pdf : undefined;
  if (statementUnread) {
    steps.push(
      failed('bank-statement', 'bank-statement.notChecked', `the statement was not read: ${statementUnread}`),
    );
  }

  const allErrors = [...steps, ...documents.flatMap((d) => d.steps)].flatMap((s) =>
    s.error ? [s.error.code] : [],
  );
  const missingBack = plan.documents.some(
    (d) =>
      accepted.has(documentSlotKey(d.group, 'front')) &&
      !accepted.has(documentSlotKey(d.group, 'back')) &&
      needsBack(d, accepted),
  );
  const finalStatus = allErrors.some((c) => rejectingCodes.has(c))
    ? 'rejected'
    : allErrors.some((c) => !isNotPerformed(c)) ||
        Object.values(expired).includes(true) ||
        (age !== null && age < 18) ||
        missingBack
      ? 'reviewNeeded'
      : 'verified';

  return {
    steps,
    documents,
    computed: { age: { data: age }, isDocumentExpired: { data: expired } },
    financialInformation,
    customFields,
    finalStatus,
    done: [],
  };
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
function customFieldsOf(row: InputRow | undefined): Record<string, string> | null {
  if (!row) return null;
  const fields = descriptorOf(row).data.fields as { name: string; atomicFieldParams: { value: string } }[];
  return Object.fromEntries(fields.map((f) => [f.name, f.atomicFieldParams.value]));
}

/** A two-sided document started without its back (after a skip) is reviewed by a person. */
function needsBack(planned: FlowPlan['documents'][number], accepted: Map<string, InputRow>) {
  const front = accepted.get(documentSlotKey(planned.group, 'front'));
  if (!front) return false;
  return (
    backOf(planned, descriptorOf(front).data as { type: string; country?: string; page?: string }) === 'two'
  );
}

/** Keys of every step in the order processing completes them. */
export function stepKeys(result: ProcessingResult): string[] {
  return [
    ...result.steps.map((s) => `steps.${s.id}`),
    ...result.documents.flatMap((d, i) => d.steps.map((s) => `documents.${i}.${s.id}`)),
  ];
}

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
