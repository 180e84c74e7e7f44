/**
 * The fixed order of merits in every flow (service spec 4.1 rule 2, wire contract §2). Apart from
 * flow.ts, which holds zod schemas: the wizard's first screen needs the order, not zod (23 kB).
 */
export const meritOrder = [
  'document-verification',
  'biometric-verification',
  'custom-document',
  'custom-fields',
  'bank-account-data',
] as const;
