import type { MrzRead } from '@/checks/mrz/document-reading';
import type { Person } from '@/checks/inputs/node/types';

/** A machine-readable zone that was found and holds its check digits. */
export type ValidZone = Extract<MrzRead, { valid: true }>;

/**
 * The OCR number of a Mexican voter card (INE, models E to H). Its TD1 zone's first line is
 * `IDMEX`, the CIC (9 digits: the document number the parser reads) and its check digit, then
 * `<<` and 13 digits (the electoral section and the citizen's identifier), which the hosted API
 * reports as `ocrNumber` and its clients read (mati-python's `ocr_number`). No check digit of its
 * own covers them, the zone's composite one does: a zone that holds it holds them.
 */
export function voterCardOcrNumber(zone: ValidZone): string | undefined {
  const [first] = zone.lines;
  if (zone.lines.length !== 3 || first?.length !== 30 || zone.issuingState !== 'MEX') return undefined;
  if (!first.startsWith('ID')) return undefined;
  return /^<<(\d{13})$/.exec(first.slice(15))?.[1];
}

/** The person a zone states, with the numbers particular documents add to it (the INE's OCR number). */
export function zonePerson(zone: ValidZone): Person {
  const ocrNumber = voterCardOcrNumber(zone);
  return ocrNumber ? { ...zone.person, extra: { ocrNumber } } : zone.person;
}
