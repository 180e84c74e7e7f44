import type { ErrorCode } from '@/shared/error-codes';
import { mergeMarkers, parseMarkers, scanFileMarkers, type Markers } from './marker';
import type { PdfInfo } from '@/checks/pdf/node/pdf';
import type { CheckOutcome, InputFacts, Person, PersonSource, StoredFile } from './types';

/*
 * What every input kind's check shares (src/service/checks/inputs/, one file per kind): the
 * outcome's shape, the safety net, the demo's markers and the messages of the codes they carry.
 */

/**
 * Whose input it is and when its check is given up: images and video frames wait in turns by
 * verification, and a check that timed out stops what it had started.
 */
export interface CheckRun {
  /** The verification: the decoders and readers take inputs in turns by verification. */
  verification?: string;
  /** Aborted when the check is given up (send-input's time limit). */
  signal?: AbortSignal;
}

/** Whether sample markers are read (DEMO_SCENARIOS=on, tests and demos only). */
export interface MarkerOption extends CheckRun {
  markers?: boolean;
}

/** Marker codes each input accepts; request-level codes (file names, order) never come from a file. */
export const markerFamilies = {
  document: (code: ErrorCode) =>
    code.startsWith('documentPhoto.') && code !== 'documentPhoto.FirstInputNotProcessed',
  selfie: (code: ErrorCode) => code.startsWith('selfiePhoto.'),
  video: (code: ErrorCode) => code.startsWith('voiceVideo.'),
  custom: (code: ErrorCode) =>
    (code.startsWith('documentPhoto.') && code !== 'documentPhoto.FirstInputNotProcessed') ||
    code.startsWith('CustomDocumentPhoto.'),
  bank: (code: ErrorCode) => code.startsWith('bankDocument.') && code !== 'bankDocument.badFileName',
};

/**
 * Generic, person-free reasons for the codes a marker carries; where the code has no reason of its
 * own here it is the code's wire message (`src/service/verification/error-messages.ts`).
 */
export const markerMessages: Partial<Record<ErrorCode, string>> = {
  'documentPhoto.badText': 'a document field did not pass validation',
  'documentPhoto.unexpectedData': 'the document could not be read',
  'documentPhoto.noText': 'no text was found on the document',
  'documentPhoto.noFace': 'no face was found on the document',
  'documentPhoto.screenPhoto': 'the photo shows a screen, not the document',
  'documentPhoto.noDocument': 'the photo matches no known document',
  'documentPhoto.missingFields': 'the document lacks required fields',
  'documentPhoto.wrongFormat': 'some document fields have an invalid format',
  'documentPhoto.noMrz': 'no machine-readable zone was found',
  'documentPhoto.badMrz': 'the machine-readable zone is damaged',
  'documentPhoto.badPdf417': 'the PDF417 barcode is damaged',
  'documentPhoto.typeMismatch': 'the document is of another type than the one chosen',
  'documentPhoto.countryMismatch': 'the document is from another country than the one chosen',
  'documentPhoto.croppedDocument': 'the document edges are not all visible',
  'documentPhoto.sideMismatch': 'the photo shows the other side of the document',
  'documentPhoto.occludedDocument': 'something covers part of the document',
  'documentPhoto.blurryText': 'The document photo is too blurry.',
  'documentPhoto.smallImageSize': 'The document photo resolution is too low.',
  'documentPhoto.grayscaleImage': 'The document photo is in grayscale.',
  'documentPhoto.noPdf417': 'No PDF417 barcode was found.',
  'documentPhoto.similarImages': 'The same side appears to have been sent twice.',
  'voiceVideo.conversionFailed': 'The video could not be converted.',
  'bankDocument.passwordRequired': 'The bank statement is password-protected; a password is needed.',
  'bankDocument.passwordFailed': 'The password of the bank statement is wrong.',
  'bankDocument.invalidMetadata': 'The bank statement was altered; upload the original file.',
  'bankDocument.statementNotSupported': 'This bank statement template is not supported.',
  'voiceVideo.noFace': 'no face was found in the video',
  'voiceVideo.multipleFaces': 'more than one face was found in the video',
  'selfiePhoto.maskDetected': 'the person wears a mask',
  'selfiePhoto.closedEyes': 'the person has closed eyes',
  'selfiePhoto.noFace': 'no face was found in the selfie',
  'selfiePhoto.multipleFaces': 'more than one face was found in the selfie',
  'selfiePhoto.sunGlasses': 'the person wears sunglasses',
  'selfiePhoto.validationError': 'the selfie was not taken properly',
};

/**
 * The person of a document: a sample's person marker states what the visual zone shows (there is
 * no OCR of it), so it wins; what the MRZ or barcode read fills the rest, and alone without one.
 */
export const readOverMarker = (marker: Person | undefined, read: Person): Person => {
  const extra = { ...read.extra, ...marker?.extra };
  return { ...read, ...marker, ...(Object.keys(extra).length ? { extra } : {}) };
};

/** Records where the person's facts came from; what a marker stated (it wins) stays the marker's. */
export function noteSources(facts: InputFacts, person: Person, source: PersonSource) {
  const sources = { ...facts.personSources };
  for (const [key, value] of Object.entries(person))
    if (value && key !== 'extra' && sources[key as keyof Person] !== 'marker')
      sources[key as keyof Person] = source;
  facts.personSources = sources;
}

export const fail = (code: ErrorCode, message: string, facts: InputFacts): CheckOutcome => ({
  code,
  message,
  facts,
});
export const pass = (facts: InputFacts): CheckOutcome => ({ code: null, facts });

/** The marker's code when this input accepts it, else undefined; records markers in the facts. */
export function applyMarkers(markers: Markers, family: (code: ErrorCode) => boolean, facts: InputFacts) {
  if (markers.person) {
    facts.person = markers.person;
    noteSources(facts, markers.person, 'marker');
  }
  if (markers.scenario && family(markers.scenario)) {
    facts.scenario = markers.scenario;
    return markers.scenario;
  }
  return undefined;
}

/** A code with no reason of its own here gets the code's default message (never the marker's name). */
export const markerOutcome = (code: ErrorCode, facts: InputFacts): CheckOutcome => ({
  code,
  message: markerMessages[code],
  facts,
});

/** Safety net: bad bytes must yield a code, never an exception. */
export async function guarded(onError: ErrorCode, run: (facts: InputFacts) => Promise<CheckOutcome>) {
  const facts: InputFacts = {};
  try {
    return await run(facts);
  } catch {
    return fail(onError, 'the file could not be processed', facts);
  }
}

/** The markers of a file, only where demo scenarios are on (else none, whatever it carries). */
export const fileMarkers = async (
  path: string,
  on: boolean | undefined,
  ...found: Markers[]
): Promise<Markers> => (on ? mergeMarkers(...found, await scanFileMarkers(path)) : {});

/** Page count and markers of an opened PDF; the marker's outcome when it carries an accepted code. */
export async function pdfMarkerOutcome(
  file: StoredFile,
  info: PdfInfo,
  family: (code: ErrorCode) => boolean,
  facts: InputFacts,
  on: boolean | undefined,
): Promise<CheckOutcome | undefined> {
  facts.pageCount = info.pageCount;
  const markers = await fileMarkers(file.path, on, parseMarkers([info.keywords ?? '', info.subject ?? '']));
  const scenario = applyMarkers(markers, family, facts);
  return scenario ? markerOutcome(scenario, facts) : undefined;
}

/**
 * A PDF that could not be read (out of time, no reader) is neither refused (nothing is known
 * against it) nor passed: it is accepted with `notChecked.pdf`, and processing reports the step it
 * feeds as not checked, so the verification ends in `reviewNeeded`.
 */
export function notCheckedPdf(reason: string, facts: InputFacts): CheckOutcome {
  facts.notChecked = { ...facts.notChecked, pdf: reason };
  return pass(facts);
}
