import type { DocumentType } from '@/shared/flow';

/**
 * Compares what a document says about itself (its MRZ or barcode) with what the person claimed
 * (type and country chosen in the wizard).
 */

/** ISO 3166 alpha-2 → the ICAO 9303 state code an MRZ uses (alpha-3, with the ICAO exceptions). */
const icaoStates: Record<string, string[]> = {
  AR: ['ARG'],
  BR: ['BRA'],
  MX: ['MEX'],
  US: ['USA'],
  GB: ['GBR', 'GBD', 'GBN', 'GBO', 'GBP', 'GBS'],
  ES: ['ESP'],
  CO: ['COL'],
  CL: ['CHL'],
  PE: ['PER'],
  UY: ['URY'],
  PY: ['PRY'],
  BO: ['BOL'],
  EC: ['ECU'],
  VE: ['VEN'],
  PT: ['PRT'],
  FR: ['FRA'],
  DE: ['D', 'DEU'],
  IT: ['ITA'],
  CA: ['CAN'],
};

/** True/false when the state code is known for the claimed country; undefined when it cannot tell. */
export function sameCountry(claimedAlpha2: string, icaoState: string): boolean | undefined {
  const state = icaoState.replace(/</g, '').toUpperCase();
  const known = icaoStates[claimedAlpha2.toUpperCase()];
  if (known) return known.includes(state);
  // An unlisted claim can still be told apart from a listed state.
  return Object.values(icaoStates).some((codes) => codes.includes(state)) ? false : undefined;
}

/** The document type an ICAO document code denotes (P passport; I, A, C identity cards). */
export function typeOfDocumentCode(code: string): DocumentType | undefined {
  const first = code.charAt(0).toUpperCase();
  if (first === 'P') return 'passport';
  if (first === 'I' || first === 'A' || first === 'C') return 'national-id';
  if (first === 'D') return 'driving-license';
  return undefined;
}

export type ClaimMismatch = 'countryMismatch' | 'typeMismatch' | null;

/** What the document says against the claim: country first, then type. */
export function claimMismatch(
  claim: { type: DocumentType; country: string },
  read: { country?: string; type?: DocumentType },
): ClaimMismatch {
  if (read.country !== undefined && sameCountry(claim.country, read.country) === false)
    return 'countryMismatch';
  if (read.type !== undefined && read.type !== claim.type) return 'typeMismatch';
  return null;
}
