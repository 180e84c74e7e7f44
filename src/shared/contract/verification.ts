import { z } from 'zod';

export const identityStatuses = ['pending', 'running', 'verified', 'reviewNeeded', 'rejected'] as const;
export const identityStatus = z.enum(identityStatuses);
export type IdentityStatus = z.infer<typeof identityStatus>;

/** Where a verification ends: the service's decision, or a reviewer's (PUT /v2/verifications/{id}/status). */
export const finalStatuses = [
  'verified',
  'rejected',
  'reviewNeeded',
] as const satisfies readonly IdentityStatus[];
export type FinalStatus = (typeof finalStatuses)[number];
export const isFinalStatus = (status: string): status is FinalStatus =>
  (finalStatuses as readonly string[]).includes(status);
export const reviewDecisions = finalStatuses;
export const reviewDecision = z.enum(reviewDecisions);
export type ReviewDecision = FinalStatus;

export const stepErrorSchema = z.object({ type: z.string(), code: z.string(), message: z.string() });
export type StepError = z.infer<typeof stepErrorSchema>;

/** A step of the verification or of a document; the hosted API adds keys now and then. */
export const stepSchema = z.looseObject({
  id: z.string(),
  status: z.union([z.literal(0), z.literal(100), z.literal(200)]),
  data: z.record(z.string(), z.unknown()).nullish(),
  error: stepErrorSchema.nullish(),
  reused: z.boolean().optional(),
  cacheHit: z.boolean().optional(),
  /** On a step_completed event: which document the step belongs to (ext). */
  documentIndex: z.number().int().min(0).optional(),
});
export type Step = z.infer<typeof stepSchema>;

/**
 * A document revision (layout) that template matching found: its id and name, the type and
 * country it is of, and whether it is still valid (`validUntil`: the last day it may be presented).
 */
export const templateRevisionSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  country: z.string(),
  valid: z.boolean(),
  validUntil: z.string().nullish(),
});
export type TemplateRevision = z.infer<typeof templateRevisionSchema>;

/**
 * `data` of a performed template-matching step (ext: the hosted answers carry none): the revision
 * found (null when the layout matched none) and how well it matched, 0 to 1.
 */
export const templateMatchingDataSchema = z.object({
  revision: templateRevisionSchema.nullable(),
  score: z.number().min(0).max(1).nullish(),
});
export type TemplateMatchingData = z.infer<typeof templateMatchingDataSchema>;

/**
 * What alteration detection found in one region of the document: `region` names it (`portrait`,
 * `zone`, `barcode`, `file`, or a field key such as `documentNumber`), `kind` what was seen there.
 */
export const alterationFindingSchema = z.object({
  region: z.string(),
  kind: z.enum(['mismatch', 'compression', 'noise', 'editor']),
  detail: z.string(),
});
export type AlterationFinding = z.infer<typeof alterationFindingSchema>;

/**
 * `data` of a performed alteration-detection step (ext): what was looked at (`checked`, region
 * names as above) and what was found (empty when the step passes).
 */
export const alterationDetectionDataSchema = z.object({
  checked: z.array(z.string()),
  findings: z.array(alterationFindingSchema),
});
export type AlterationDetectionData = z.infer<typeof alterationDetectionDataSchema>;

/** One read field of a document: in the document-reading step's `data` and in `documents[].fields`. */
export const documentFieldSchema = z.object({
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  label: z.string().optional(),
  format: z.literal('date').optional(),
  sensitive: z.boolean().optional(),
  required: z.boolean().optional(),
  /** (ext) Where the value was read: the zone, the barcode, the print (OCR) or a sample's marker. */
  source: z.enum(['mrz', 'pdf417', 'print', 'marker']).optional(),
});
export type DocumentField = z.infer<typeof documentFieldSchema>;
export const documentFieldsSchema = z.record(z.string(), documentFieldSchema);
export type DocumentFields = z.infer<typeof documentFieldsSchema>;

/** The document-reading field keys the service fills (more may come per document). */
export const documentFieldKeys = [
  'fullName',
  'firstName',
  'surname',
  'documentNumber',
  'dateOfBirth',
  'expirationDate',
  'emissionDate',
  'address',
  'nationality',
  'sex',
  'curp',
  'rfc',
  'cde',
  'ocrNumber',
  'cuit',
  'cpf',
] as const;

export const verificationDocumentSchema = z.looseObject({
  type: z.string(),
  country: z.string(),
  region: z.string().nullish(),
  photos: z.array(z.string()),
  steps: z.array(stepSchema),
  fields: documentFieldsSchema.optional(),
});
export type VerificationDocument = z.infer<typeof verificationDocumentSchema>;

const money = z.number().nullish();
export const bankAccountSchema = z.looseObject({
  number: z.string().nullish(),
  type: z.string().nullish(),
  currency: z.string().nullish(),
  institution: z.string().nullish(),
  balance: money,
});
export const bankTransactionSchema = z.looseObject({
  date: z.string().nullish(),
  description: z.string().nullish(),
  amount: money,
  balance: money,
  currency: z.string().nullish(),
});
export const bankStatementSchema = z.object({
  accounts: z.array(bankAccountSchema),
  transactions: z.array(bankTransactionSchema),
  current_balance: money,
  available_balance: money,
  identity: z.record(z.string(), z.unknown()).nullish(),
});
export type BankStatement = z.infer<typeof bankStatementSchema>;

export const deviceFingerprintSchema = z.looseObject({
  ua: z.string().nullish(),
  ip: z.string().nullish(),
  vpnDetectionEnabled: z.boolean().optional(),
});
export type DeviceFingerprint = z.infer<typeof deviceFingerprintSchema>;

/** Metadata: an object (nested allowed) of at most 4 KB serialized. */
export const metadataObjectSchema = z
  .record(z.string(), z.unknown())
  .refine((m) => JSON.stringify(m).length <= 4096, 'metadata of at most 4 KB');

export const computedSchema = z.looseObject({
  age: z.object({ data: z.number().nullable() }).optional(),
  isDocumentExpired: z.object({ data: z.record(z.string(), z.boolean().nullable()) }).optional(),
});

/** GET /v2/verifications/{id}: the hosted API's shape. Loose: the hosted service may add keys. */
export const verificationDataSchema = z.looseObject({
  id: z.string(),
  expired: z.boolean().optional(),
  flow: z.object({ id: z.string(), name: z.string() }),
  identity: z.looseObject({ status: identityStatus, id: z.string().optional() }),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  steps: z.array(stepSchema),
  documents: z.array(verificationDocumentSchema),
  computed: computedSchema.nullish(),
  hasProblem: z.boolean().optional(),
  deviceFingerprint: deviceFingerprintSchema.nullish(),
  financialInformation: z.object({ bankStatement: bankStatementSchema.nullish() }).nullish(),
  /** The custom-field answers, by field name (ext). */
  customFields: z.record(z.string(), z.string()).nullish(),
});
export type VerificationData = z.infer<typeof verificationDataSchema>;

/** Names of the steps and document checks that are done (status 200), for a progress line. */
export function completedStepsOf(data: VerificationData): string[] {
  return [
    ...data.steps.flatMap((step) => (step.status === 200 ? [step.id] : [])),
    ...data.documents.flatMap((doc) =>
      doc.steps.flatMap((step) => (step.status === 200 ? [`${doc.type}:${step.id}`] : [])),
    ),
  ];
}
