import { documentSides } from '@/shared/document-sides';
import type { DocumentType } from '@/shared/flow';
import { correctMrz, isVisaZone, mrzCheckDigitsHeld, mrzCheckDigitsHold } from './mrz-fields';

/**
 * What a document says about itself (its machine-readable zone or the Argentine DNI barcode) and
 * how that is judged, written once for the embedded service (`src/service/checks`) and the
 * wizard's capture checks (`src/features/wizard/checks`), so both refuse the same photos. Each side
 * runs its own OCR (tesseract.js) and parser (`mrz`, passed in as `parse`): this file holds plain
 * rules only.
 */

/** The person a document states (the subset of the service's `Person` read from MRZ or barcode). */
export interface DocumentPerson {
  fullName: string;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string; // YYYY-MM-DD
  documentNumber?: string;
  expiryDate?: string; // YYYY-MM-DD
  issueDate?: string;
  nationality?: string;
  sex?: string;
}

export type DocumentPage = 'front' | 'back';
export type DocumentCheck = 'mrz' | 'pdf417';

/**
 * The side that carries the machine-readable zone, per document type: the passport's data page
 * (TD3); the back of two-sided ID cards and licences (TD1); the only side of a one-sided card. A
 * proof of residency has none.
 */
export function mrzPage(type: DocumentType, country: string): DocumentPage | null {
  if (type === 'proof-of-residency') return null;
  if (type === 'passport') return 'front';
  return documentSides(type, country) === 'one' ? 'front' : 'back';
}

/** Whether this side is read for an MRZ: the flow step requires one and this side carries it. */
export function readsMrz(side: {
  requires: readonly DocumentCheck[];
  type: DocumentType;
  country: string;
  page: DocumentPage;
}): boolean {
  return side.requires.includes('mrz') && mrzPage(side.type, side.country) === side.page;
}

/** Characters an MRZ is written with (the OCR is told to see nothing else). */
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
/** Images are scaled to this width before OCR: a 44-character line keeps ~20 px per character. */
export const MRZ_OCR_WIDTH = 1000;
/**
 * …and to at most this height (an unusually tall image gets narrower instead), so the pixels looked
 * at stay within 2 MB whatever the photo's shape.
 */
export const MRZ_OCR_MAX_HEIGHT = 2 * MRZ_OCR_WIDTH;
/**
 * Tesseract parameters of the MRZ OCR, beside the page mode (a tesseract.js enum, set by each side).
 * `tessedit_do_invert` off: an MRZ is dark print on a light ground, and the second, inverted
 * reading tesseract tries on any line it is unsure of cost about a quarter of the OCR time on the
 * samples. `user_defined_dpi`: the cropped band carries no resolution, and tesseract warns on
 * every image it has to guess one for (the figure does not change the LSTM reading).
 */
export const MRZ_OCR_PARAMETERS = {
  tessedit_char_whitelist: MRZ_ALPHABET,
  tessedit_do_invert: '0',
  user_defined_dpi: '300',
} as const;

const TD_LENGTHS = [44, 36, 30];

/**
 * Lines that look like MRZ: long runs of the MRZ alphabet with filler. Near-misses are re-padded to
 * the format; a line whose rest is filler (from its first `<<<` on, no digit) is cut or padded to
 * it whatever its length, because OCR miscounts long runs of `<` (a 3000 px passport photo's name
 * line came out 41 long, a camera frame's 47, not 44) and filler carries nothing the check digits
 * cover.
 */
export function mrzLines(text: string): string[] {
  const near = (l: string, n: number) => Math.abs(l.length - n) <= 2;
  const cleaned = text.split('\n').map((l) => l.replace(/[^A-Z0-9<]/g, ''));
  // A data line may hold no filler at all (a visa's whose optional data is full) when another
  // line of the zone has some; alone it would be any long run of capitals and digits.
  const withFiller = cleaned.some((l) => l.length >= 26 && l.includes('<<'));
  const candidates = cleaned.filter(
    (l) => l.length >= 26 && (l.includes('<') || (withFiller && TD_LENGTHS.some((n) => near(l, n)))),
  );
  if (candidates.length < 2) return [];
  // From its first `<<<` on, a line with no digit there holds filler (data lines end in check digits).
  const tail = (l: string) => (l.includes('<<<') ? l.slice(l.indexOf('<<<')) : '0');
  const fits = (l: string, n: number) => near(l, n) || (!/\d/.test(tail(l)) && l.indexOf('<<<') < n);
  // The format is the longest line's or, when that one read too much filler, the longest data line's.
  const longest = (lines: string[]) => lines.reduce((a, b) => (b.length > a.length ? b : a), '');
  const format = (l: string) => TD_LENGTHS.find((n) => near(l, n));
  const length = format(longest(candidates)) ?? format(longest(candidates.filter((l) => /\d/.test(tail(l)))));
  if (!length || !candidates.every((l) => fits(l, length))) return candidates;
  const lines = candidates.map((l) => (l.length > length ? l.slice(0, length) : l.padEnd(length, '<')));
  // A data line read too long holds a character too many at either end (a mark or an edge beside
  // the zone read as `L` or `1`): the window whose check digits hold best is the line.
  candidates.forEach((l, i) => {
    if (l.length <= length || !/\d/.test(tail(l))) return;
    const score = (line: string) => {
      const tried = lines.map((x, j) => (j === i ? line : x));
      return mrzCheckDigitsHeld(correctMrz(tried)).held;
    };
    let best = { line: lines[i], held: score(lines[i]) };
    for (let from = 1; from <= l.length - length; from++) {
      const line = l.slice(from, from + length);
      const held = score(line);
      if (held > best.held) best = { line, held };
    }
    lines[i] = best.line;
  });
  // The name line: TD3's and TD2's first (after the 5 characters of code and state), TD1's third.
  const name = length === 30 ? 2 : 0;
  if (lines[name]) lines[name] = nameFiller(lines[name], length === 30 ? 0 : 5);
  return lines;
}

/**
 * A name field holds `<<` between surname and given names and `<` between their parts, never
 * `<<<`: from the first `<<<` on it is filler, and what the OCR read there is a misread `<` (it
 * reads a long run of `<` with the odd `L` or `K`; a camera frame of a passport came out
 * `ALEX<<<…<<L<L<L<`, which no parser takes for a name). No check digit covers the name field.
 */
function nameFiller(line: string, from: number): string {
  const at = line.indexOf('<<<', from);
  return at < 0 ? line : line.slice(0, at) + '<'.repeat(line.length - at);
}

export type MrzRead =
  | { found: false }
  | { found: true; valid: false; lines: string[] }
  | {
      found: true;
      valid: true;
      lines: string[];
      /** ICAO document code: P…, I…, A…, C…, V… */
      documentCode: string;
      /** ICAO 9303 state code of the issuer, e.g. GBR. */
      issuingState: string;
      person: DocumentPerson;
    };

/** What the `mrz` package's `parse` answers (the fields this file reads). */
export interface MrzParseResult {
  valid: boolean;
  fields: {
    documentCode?: string | null;
    issuingState?: string | null;
    lastName?: string | null;
    firstName?: string | null;
    documentNumber?: string | null;
    nationality?: string | null;
    birthDate?: string | null;
    expirationDate?: string | null;
    sex?: string | null;
  };
  /** Each field's verdict; where it stands in the lines (`line`, `start`, `end`). */
  details?: {
    field: string | null;
    valid: boolean;
    error?: string;
    line: number;
    start: number;
    end: number;
  }[];
}

/**
 * A state code the parser does not list but that is written as one: three letters, or fewer
 * padded with filler (`D<<`). ICAO's own specimens are issued by Utopia (`UTO`), and states that
 * no longer exist (`BDR`) still print zones; no check digit covers a state code, and whether it is
 * the claimed country is judged apart (`sameCountry`).
 */
const STATE_WRITTEN = /^[A-Z]{1,3}<{0,2}$/;

/**
 * The state code at a field of the lines, when the parser refused it only for not listing it; an
 * empty one for a nationality left blank (`<<<`: Macau's non-permanent resident card prints it),
 * which no check digit covers either way and which is then not reported. An issuing state is
 * never blank.
 */
function unlistedState(lines: string[], detail: NonNullable<MrzParseResult['details']>[number]) {
  if (detail.valid || !/^invalid state code/.test(detail.error ?? '')) return undefined;
  const code = lines[detail.line]?.slice(detail.start, detail.end) ?? '';
  if (detail.field === 'nationality' && code === '<<<') return '';
  return code.length === 3 && STATE_WRITTEN.test(code) ? code.replace(/</g, '') : undefined;
}

const century = (yymmdd: string, pastOnly: boolean, now = new Date()) => {
  const yy = Number(yymmdd.slice(0, 2));
  const current = now.getUTCFullYear() % 100;
  // Birth dates are in the past; expiry dates within the next 50 years.
  const year = pastOnly ? (yy > current ? 1900 + yy : 2000 + yy) : yy >= current + 50 ? 1900 + yy : 2000 + yy;
  return `${year}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
};

const sexOf = (sex: string | null | undefined) =>
  sex === 'male' ? 'M' : sex === 'female' ? 'F' : sex ? 'X' : undefined;

/** MRZ lines judged with check digits (`parse` is the `mrz` package's); the person when they hold. */
export function parseMrzLines(lines: string[], parse: (lines: string[]) => MrzParseResult): MrzRead {
  if (lines.length === 0) return { found: false };
  if (isVisaZone(lines)) return parseVisaLines(lines);
  let result: MrzParseResult;
  try {
    result = parse(lines);
  } catch {
    return { found: true, valid: false, lines };
  }
  const f = { ...result.fields };
  let valid = result.valid;
  if (!valid && result.details?.some((d) => !d.valid)) {
    // Valid all the same when every refusal is a state code written as one but not listed.
    const refused = result.details.filter((d) => !d.valid);
    const states = refused.map((d) => unlistedState(lines, d));
    if (states.every((code) => code !== undefined)) {
      valid = true;
      refused.forEach((d, i) => {
        if (d.field === 'issuingState') f.issuingState = states[i];
        if (d.field === 'nationality') f.nationality = states[i];
      });
    }
  }
  if (!valid || !f.documentCode || !f.issuingState) return { found: true, valid: false, lines };
  const lastName = f.lastName?.trim() ?? '';
  const firstName = f.firstName?.trim() ?? '';
  const sex = sexOf(f.sex);
  const person: DocumentPerson = {
    fullName: `${firstName} ${lastName}`.trim() || (f.documentNumber ?? ''),
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    ...(f.documentNumber ? { documentNumber: f.documentNumber } : {}),
    ...(f.nationality ? { nationality: f.nationality } : {}),
    ...(f.birthDate ? { dateOfBirth: century(f.birthDate, true) } : {}),
    ...(f.expirationDate ? { expiryDate: century(f.expirationDate, false) } : {}),
    ...(sex ? { sex } : {}),
  };
  return {
    found: true,
    valid: true,
    lines,
    documentCode: f.documentCode,
    issuingState: f.issuingState,
    person,
  };
}

/** A YYMMDD date that can be one (month 1–12, day 1–31). */
const YYMMDD = /^\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/;

/**
 * A visa's zone (MRV-A, MRV-B), which the `mrz` package does not parse: valid when its check
 * digits hold (number, birth and expiry dates: a visa has no composite one), its dates are dates,
 * its states are written as state codes and its sex is M, F, X or filler.
 */
function parseVisaLines(lines: string[]): MrzRead {
  const [top, data] = lines;
  const issuingState = top.slice(2, 5);
  const nationality = data.slice(10, 13);
  const birth = data.slice(13, 19);
  const expiry = data.slice(21, 27);
  const sex = data[20];
  const valid =
    mrzCheckDigitsHold(lines) &&
    YYMMDD.test(birth) &&
    YYMMDD.test(expiry) &&
    /^[MFX<]$/.test(sex) &&
    STATE_WRITTEN.test(issuingState) &&
    STATE_WRITTEN.test(nationality) &&
    /^[A-Z]/.test(top.slice(5));
  if (!valid) return { found: true, valid: false, lines };
  const [surname, ...given] = top.slice(5).split('<<');
  const words = (text: string) => text.replace(/</g, ' ').trim().replace(/ +/g, ' ');
  const lastName = words(surname);
  const firstName = words(given.join(' '));
  const documentNumber = data.slice(0, 9).replace(/</g, '');
  const person: DocumentPerson = {
    fullName: `${firstName} ${lastName}`.trim() || documentNumber,
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    ...(documentNumber ? { documentNumber } : {}),
    nationality: nationality.replace(/</g, ''),
    dateOfBirth: century(birth, true),
    expiryDate: century(expiry, false),
    ...(sex === '<' ? {} : { sex }),
  };
  return {
    found: true,
    valid: true,
    lines,
    documentCode: top.slice(0, 2).replace(/</g, ''),
    issuingState: issuingState.replace(/</g, ''),
    person,
  };
}

const arDate = (text: string | undefined) => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text ?? '');
  return m ? `${m[3]}-${m[2]}-${m[1]}` : undefined;
};

/**
 * The Argentine DNI's PDF417 (cards since 2009): `trámite@SURNAME@NAMES@SEX@DNI@COPY@BIRTH@ISSUE@…`,
 * dates DD/MM/YYYY. Returns undefined for any other layout. The record holds no expiry date.
 */
export function parseArgentinePdf417(text: string): DocumentPerson | undefined {
  const f = text.split('@');
  if (f.length < 8 || !/^\d{7,8}$/.test(f[4] ?? '')) return undefined;
  const lastName = f[1].trim();
  const firstName = f[2].trim();
  const dateOfBirth = arDate(f[6]);
  const issueDate = arDate(f[7]);
  if (!lastName || !firstName || !/^[MFX]$/.test(f[3]) || !dateOfBirth || !issueDate) return undefined;
  return {
    fullName: `${firstName} ${lastName}`.trim(),
    firstName,
    lastName,
    sex: f[3],
    documentNumber: f[4],
    dateOfBirth,
    issueDate,
    nationality: 'ARG',
  };
}

/** What the DNI barcode states about the document, for `claimMismatch`. */
export const DNI_CLAIM = { country: 'ARG', type: 'national-id' } as const;

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

/** What the document says against the claim (type and country chosen): country first, then type. */
export function claimMismatch(
  claim: { type: DocumentType; country: string },
  read: { country?: string; type?: DocumentType },
): ClaimMismatch {
  if (read.country !== undefined && sameCountry(claim.country, read.country) === false)
    return 'countryMismatch';
  if (read.type !== undefined && read.type !== claim.type) return 'typeMismatch';
  return null;
}

export type MrzVerdict = 'noMrz' | 'badMrz' | 'countryMismatch' | 'typeMismatch' | null;

/** The MRZ rule: found, every check digit holds, and it states the claimed country and type. */
export function mrzVerdict(read: MrzRead, claim: { type: DocumentType; country: string }): MrzVerdict {
  if (!read.found) return 'noMrz';
  if (!read.valid) return 'badMrz';
  // A visa's zone names its holder, but a visa is none of the documents a flow asks for.
  if (read.documentCode.startsWith('V')) return 'typeMismatch';
  return claimMismatch(claim, { country: read.issuingState, type: typeOfDocumentCode(read.documentCode) });
}

/** Whether an expiry date (YYYY-MM-DD) has passed on `today` (the day of expiry still counts as valid). */
export function isExpired(expiryDate: string | undefined, today = new Date()): boolean {
  return typeof expiryDate === 'string' && expiryDate < today.toISOString().slice(0, 10);
}
