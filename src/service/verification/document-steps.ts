import { documentType } from '@/shared/flow';
import { FACE_MATCH_PASS_MARK } from '@/checks/face/node/face-match';
import type { DocumentCheckOutcomes } from '@/checks/inputs/node/document-check-outcome';
import type { InputFacts, Person } from '@/checks/inputs/node/types';
import { documentCheckStep } from './document-check-step';
import {
  failed,
  notPerformed,
  notPerformedReasons,
  ok,
  type MatchOutcome,
  type DocumentResult,
  type StepResult,
} from './step-results';

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

/** Names that the synthetic watch-list matches (documented in the service README). */
const syntheticWatchlist = /\bsanction(ed)?\b/i;

export function documentSteps(
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
export function mergeSides(
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

export function fieldsOf(
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
export function regionOf(type: string, data: Record<string, unknown>): string | null {
  const given = typeof data.region === 'string' ? data.region : '';
  return documentType.safeParse(type).success && type !== 'proof-of-residency' ? given : given || null;
}
