/** Every send-input error code of service spec 7.2, with the input family it belongs to. */
export const errorCodes = [
  'media.notFound',
  'documentPhoto.badText',
  'documentPhoto.blurryText',
  'documentPhoto.smallImageSize',
  'documentPhoto.unexpectedData',
  'documentPhoto.noText',
  'documentPhoto.noFace',
  'documentPhoto.grayscaleImage',
  'documentPhoto.screenPhoto',
  'documentPhoto.noDocument',
  'documentPhoto.missingFields',
  'documentPhoto.wrongFormat',
  'documentPhoto.noMrz',
  'documentPhoto.badMrz',
  'documentPhoto.noPdf417',
  'documentPhoto.badPdf417',
  'documentPhoto.typeMismatch',
  'documentPhoto.countryMismatch',
  'documentPhoto.croppedDocument',
  'documentPhoto.sideMismatch',
  'documentPhoto.occludedDocument',
  'documentPhoto.similarImages',
  'documentPhoto.FirstInputNotProcessed',
  'voiceVideo.conversionFailed',
  'voiceVideo.multipleFaces',
  'voiceVideo.noFace',
  'bankDocument.passwordRequired',
  'bankDocument.passwordFailed',
  'bankDocument.badFileName',
  'bankDocument.invalidMetadata',
  'bankDocument.statementNotSupported',
  'CustomDocumentPhoto.multiPageInputError',
  'selfiePhoto.maskDetected',
  'selfiePhoto.closedEyes',
  'selfiePhoto.noFace',
  'selfiePhoto.multipleFaces',
  'selfiePhoto.sunGlasses',
  'selfiePhoto.validationError',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/**
 * Step error codes of a performed template-matching step (wire contract §6, "Template matching
 * and alteration detection"): the hosted API's `noMatchFound` (the layout is no valid revision)
 * and ours (ext) for a known revision that is no longer valid.
 */
export const templateMatchingErrorCodes = [
  'templateMatching.noMatchFound',
  'templateMatching.revisionNotValid',
] as const;
export type TemplateMatchingErrorCode = (typeof templateMatchingErrorCodes)[number];

/**
 * Step error codes of a performed alteration-detection step, the hosted API's (its dashboard names
 * the reasons): `digitalAlteration` (a pasted portrait or text, a re-saved file),
 * `physicalAlteration` (a printed copy, a hand-altered field), `invalidDocument` (the photos are
 * not of one genuine document: sides of two cards, a screen), `fraudAttempt`, `negligence`.
 */
export const alterationDetectionErrorCodes = [
  'alterationDetection.digitalAlteration',
  'alterationDetection.physicalAlteration',
  'alterationDetection.invalidDocument',
  'alterationDetection.fraudAttempt',
  'alterationDetection.negligence',
] as const;
export type AlterationDetectionErrorCode = (typeof alterationDetectionErrorCodes)[number];

/** Every step error code of the two document checks, for the glossaries of the codes. */
export const documentCheckErrorCodes = [...templateMatchingErrorCodes, ...alterationDetectionErrorCodes];

/** Errors that are the service's fault, not the person's (service spec 7.1). */
export const systemErrorCodes: readonly ErrorCode[] = [
  'documentPhoto.unexpectedData',
  'voiceVideo.conversionFailed',
];
export const errorTypeOf = (code: ErrorCode) =>
  systemErrorCodes.includes(code) ? ('SystemError' as const) : ('ValidationError' as const);

/**
 * Codes that no model shipped with the project judges; the embedded service reads them from a
 * sample file's scenario marker (wire contract §4). The others are measured from the bytes and
 * pixels (faces, eyes, masks and dark lenses, MRZ, PDF417 and their mismatches, the document's
 * outline and the back's portrait, the printed fields, a screen's moiré, a cover over the document:
 * src/checks/ORDER.md).
 */
export const markerOnlyCodes: readonly ErrorCode[] = [
  'documentPhoto.unexpectedData',
  'selfiePhoto.validationError',
];

/** Text in a sample file's metadata that carries a scenario or a person (wire contract §4, ext). */
export const SCENARIO_MARKER = 'idv-scenario=';
export const PERSON_MARKER = 'idv-person=';
