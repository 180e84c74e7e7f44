import type { DocumentLayout, FieldKey, FieldLayout } from '@/checks/document/field-layouts';
import {
  cpfHolds,
  curpHolds,
  digitLike,
  editDistance,
  isoDate,
  isValidDate,
  normalizeText,
  parsePrintedDate,
  sameDate,
  umlautsSpelled,
} from './printed-values';

/**
 * The printed fields (VIZ) of a document: how a field's value is found in the OCR's lines (after
 * its label, in its column), how it is judged (format, agreement with the zone or the barcode) and
 * the codes that follow. Pure rules: the OCR and the crops are the engines' (`node/`).
 */

/** A word the OCR read, in the pixels of the crop it was read from. */
export interface OcrWord {
  text: string;
  /** 0–100. */
  confidence: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrLine {
  words: OcrWord[];
}

/** What was read of one field. */
export type FieldReading =
  /** Its value, and the OCR's mean confidence over its words. */
  | { state: 'read'; value: string; confidence: number }
  /** Its label was read and nothing under it: blank (`missing`) when the pixels there hold no print. */
  | { state: 'labelOnly'; labelBottom: number; labelHeight: number }
  /** Neither its label nor its value (glare, a fold, another layout): nothing is known of it. */
  | { state: 'unread' };

/** A reading this confident or more may refuse a photo (with a second reading that agrees). */
export const FIELD_MIN_CONFIDENCE = 70;
/** Share of dark pixels under a label above which its value is taken as printed (`missingFields`). */
export const BLANK_MAX_INK = 0.004;

/** The value's characters a pattern field is judged on: no spaces, letters upper case. */
const compact = (value: string) => value.toUpperCase().replace(/\s+/g, '');

/** Whether a read value has its field's format; `date` fields need a possible calendar date. */
export function validFormat(field: FieldLayout, value: string): boolean {
  if (field.format === 'date') {
    const date = parsePrintedDate(value);
    return date !== undefined && isValidDate(date);
  }
  if (field.format === 'name') return /^[\p{L}' -]+$/u.test(value.trim()) && /\p{L}{2}/u.test(value);
  return patternReading(field, value) !== undefined;
}

/** Look-alikes the OCR confuses in printed numbers and codes. */
const LOOK_ALIKES: Record<string, string[]> = {
  O: ['0'],
  Q: ['0'],
  D: ['0'],
  '0': ['O'],
  S: ['5', '8'],
  '5': ['S'],
  I: ['1'],
  L: ['1'],
  '1': ['I'],
  B: ['8'],
  '8': ['B'],
  Z: ['2'],
  '2': ['Z'],
  G: ['6'],
  '6': ['G'],
};

const holds = (field: FieldLayout, characters: string) =>
  (field.pattern?.test(characters) ?? true) &&
  (field.key !== 'cpf' || cpfHolds(characters)) &&
  (field.key !== 'curp' || curpHolds(characters));

/** The text with its character i swapped for each of its look-alikes. */
const swaps = (text: string, i: number) =>
  (LOOK_ALIKES[text[i]!] ?? []).map((c) => text.slice(0, i) + c + text.slice(i + 1));

/**
 * A pattern field's characters as they hold its pattern and check digits, or undefined: as read,
 * else with up to two look-alikes swapped (O for 0, S for 5…), which the OCR confuses where the
 * print is sound; a number that no such swap makes valid is printed wrong.
 */
export function patternReading(field: FieldLayout, value: string): string | undefined {
  const characters = compact(value);
  if (holds(field, characters)) return characters;
  const swappable = [...characters].flatMap((c, i) => (LOOK_ALIKES[c] ? [i] : []));
  for (const [n, i] of swappable.entries()) {
    for (const once of swaps(characters, i)) {
      if (holds(field, once)) return once;
      for (const j of swappable.slice(n + 1)) {
        const twice = swaps(once, j).find((t) => holds(field, t));
        if (twice) return twice;
      }
    }
  }
  return undefined;
}

// ---------- finding a field in the OCR's lines ----------

const box = (words: readonly OcrWord[]) => ({
  x0: Math.min(...words.map((w) => w.x0)),
  y0: Math.min(...words.map((w) => w.y0)),
  x1: Math.max(...words.map((w) => w.x1)),
  y1: Math.max(...words.map((w) => w.y1)),
});

/**
 * Where a label sits in a line, or undefined: its words (the line's words whose letters make up the
 * label, a misread letter in six allowed), found on the line's text with spaces and slashes off.
 */
function findLabel(line: OcrLine, labels: readonly string[]) {
  const words = line.words.map((w) => normalizeText(w.text).replace(/ /g, ''));
  const joined = words.join('');
  if (!joined) return undefined;
  for (const label of labels) {
    const wanted = normalizeText(label).replace(/ /g, '');
    const allowed = Math.floor(wanted.length / 6);
    for (let start = 0; start + wanted.length - allowed <= joined.length; start++) {
      const window = joined.slice(start, start + wanted.length);
      if (window.length < wanted.length - allowed || editDistance(window, wanted) > allowed) continue;
      // Short labels (CPF, NOM) must be whole words: no label inside another word.
      if (wanted.length < 5 && !words.includes(wanted)) continue;
      let offset = 0;
      const covered = line.words.filter((_, i) => {
        const from = offset;
        offset += words[i]!.length;
        return offset > start && from < start + wanted.length;
      });
      if (covered.length) return box(covered);
    }
  }
  return undefined;
}

const LABEL_WORDS = new Set(
  [
    'SURNAME NAME NOM NOMBRE NOMBRES APELLIDO APELLIDOS NOME GIVEN NAMES PRENOMS VORNAMEN DATE OF BIRTH',
    'FECHA DE NACIMIENTO DATA NASCIMENTO NAISSANCE GEBURTSTAG PASSPORT NO DOCUMENT DOCUMENTO NUMBER TYPE',
    'CODE NATIONALITY NACIONALIDAD SEX SEXO SEXE PLACE LIEU EXPIRY EXPIRATION ISSUE AUTHORITY REGISTRO',
    'GERAL CPF CURP CLAVE ELECTOR VALIDADE EXPEDICAO VENCIMIENTO EMISION DOMICILIO SIGNATURE FIRMA',
  ]
    .join(' ')
    .split(' '),
);

/** Whether a line reads as labels (small print in mixed case, words of labels), not as a value. */
function labelLike(words: readonly OcrWord[]): boolean {
  const text = words.map((w) => w.text).join(' ');
  const letters = text.replace(/[^\p{L}]/gu, '');
  const lower = letters.replace(/[^\p{Ll}]/gu, '').length;
  if (letters.length >= 4 && lower / letters.length > 0.4) return true;
  const tokens = normalizeText(text).split(' ').filter(Boolean);
  return tokens.length > 0 && tokens.filter((t) => LABEL_WORDS.has(t)).length / tokens.length > 0.5;
}

/** Whether words can be the field's value: what its format looks like, before judging it. */
function looksLikeValue(field: FieldLayout, words: readonly OcrWord[]): boolean {
  const text = words.map((w) => w.text).join(' ');
  if (labelLike(words)) return false;
  if (field.format === 'date') return parsePrintedDate(text) !== undefined;
  if (field.format === 'name') return /\p{Lu}{2}/u.test(text);
  // Every number the layouts describe holds digits: a name beside the label is another column's.
  return compact(text).replace(/[^A-Z0-9]/g, '').length >= 4 && /\d/.test(text);
}

/**
 * The value under a field's label: the first line below it (within four label heights) whose
 * words in the label's column look like the field's value. The column starts near the label's left
 * edge and runs right while the words are close (a gap of two heights ends it: the next column).
 */
export function readField(lines: readonly OcrLine[], field: FieldLayout): FieldReading {
  for (const [i, line] of lines.entries()) {
    const label = findLabel(line, field.labels);
    if (!label) continue;
    const height = Math.max(1, label.y1 - label.y0);
    for (const below of lines.slice(i + 1)) {
      const sorted = below.words.filter((w) => w.y0 >= label.y0 + 0.6 * height).sort((a, b) => a.x0 - b.x0);
      const first = sorted.findIndex((w) => w.x1 > label.x0 - 2 * height && w.x0 < label.x1 + height);
      if (first < 0) continue;
      if (sorted[first]!.y0 > label.y1 + 4 * height) break;
      const column = [sorted[first]!];
      for (const word of sorted.slice(first + 1)) {
        const wordHeight = Math.max(1, word.y1 - word.y0);
        if (word.x0 - column.at(-1)!.x1 > 2 * wordHeight) break;
        column.push(word);
      }
      if (!looksLikeValue(field, column)) continue;
      // Specks beside the value (a guilloche's edge, a dot) are read as punctuation around it.
      const value = column
        .map((w) => w.text)
        .join(' ')
        .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      const confidence = column.reduce((sum, w) => sum + w.confidence, 0) / column.length;
      return { state: 'read', value, confidence: Math.round(confidence) };
    }
    return { state: 'labelOnly', labelBottom: label.y1, labelHeight: height };
  }
  return { state: 'unread' };
}

// ---------- agreement with the zone or the barcode ----------

/** The holder's facts the zone or the barcode states, to compare the print with. */
export interface StatedFields {
  lastName?: string;
  firstName?: string;
  fullName?: string;
  dateOfBirth?: string;
  documentNumber?: string;
  expiryDate?: string;
  issueDate?: string;
}

/**
 * Whether a printed name is the stated one: equal once accents, marks, spacing and punctuation are
 * off (either transliteration of umlauts); a zone's name cut at its field's end is the print's
 * beginning. One letter in six may differ: the OCR's misreads, which a forger's change of a whole
 * name is not.
 */
export function sameName(printed: string, stated: string): 'equal' | 'close' | 'different' {
  const forms = (text: string) => [normalizeText(text), umlautsSpelled(text)].map((t) => t.replace(/ /g, ''));
  const statedForms = forms(stated);
  for (const p of forms(printed)) {
    for (const s of statedForms) {
      if (p === s || (s.length >= 10 && p.startsWith(s))) return 'equal';
    }
  }
  const [p] = forms(printed);
  const [s] = statedForms;
  return editDistance(p!, s!) <= Math.floor(s!.length / 6) ? 'close' : 'different';
}

/** Whether a printed number is the stated one: letters and digits only, look-alikes (O/0, I/1) as one. */
export function sameNumber(printed: string, stated: string): boolean {
  const key = (text: string) => digitLike(normalizeText(text).replace(/ /g, ''));
  return key(printed) === key(stated);
}

export type Agreement = 'equal' | 'close' | 'different' | 'notStated';

/** How a read field compares with what the zone or the barcode states of it. */
export function agreement(key: FieldKey, value: string, stated: StatedFields): Agreement {
  if (key === 'lastName' || key === 'firstName' || key === 'fullName') {
    const name = stated[key];
    return name ? sameName(value, name) : 'notStated';
  }
  if (key === 'dateOfBirth' || key === 'expiryDate' || key === 'issueDate') {
    const iso = stated[key];
    const date = parsePrintedDate(value);
    if (!iso || !date) return 'notStated';
    return sameDate(date, iso) ? 'equal' : 'different';
  }
  if (key === 'documentNumber') {
    const number = stated.documentNumber;
    if (!number) return 'notStated';
    return sameNumber(value, number) ? 'equal' : 'different';
  }
  return 'notStated';
}

// ---------- the zone's values found in the print ----------

/**
 * Whether a line is the zone's (or a part of it): fillers (`<`, or the `c`, `K` and `«` the OCR
 * reads them as, in a row), or a run of 20 letters and digits without a space. The zone's values
 * are searched in the print only, never in the zone itself.
 */
export function zoneLike(line: OcrLine): boolean {
  const text = line.words.map((w) => w.text).join(' ');
  return (
    /<|[«‹]{2}|[cCkK<«‹]{4,}/.test(text) ||
    line.words.some((w) => w.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 20)
  );
}

/** A word's text without the punctuation and specks an OCR reads around it. */
const trimmed = (text: string) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** What a window of words shows as a field of this kind: letters only for a name. */
const windowText = (key: FieldKey, words: readonly OcrWord[]) =>
  words
    .map((w) =>
      key === 'lastName' || key === 'firstName' ? w.text.replace(/[^\p{L}' -]/gu, '') : trimmed(w.text),
    )
    .filter(Boolean)
    .join(' ');

/** How many consecutive words a field of this kind may be printed in. */
const WINDOW: Partial<Record<FieldKey, number>> = {
  lastName: 4,
  firstName: 4,
  documentNumber: 3,
  dateOfBirth: 5,
};

/**
 * The print's reading of a field the zone (or barcode) states, found wherever the print shows it
 * (ICAO's generic data page: each issuer places and labels its fields its own way): the words, in
 * one line that is not the zone's, equal to the stated value once compared as `agreement` does
 * (names after accents and spacing, numbers with look-alikes as one, dates as dates in any printed
 * form), else a name one misread letter in six from it ('close'). Undefined where nothing is:
 * finding a value proves agreement; not finding it proves nothing (a disagreeing print is judged
 * only where a layout places its fields).
 */
export function findStated(
  lines: readonly OcrLine[],
  key: FieldKey,
  stated: StatedFields,
): FieldReading | undefined {
  return findStatedLine(lines, key, stated)?.reading;
}

/** `findStated`, with the rows of the line it was found in (where the reader looks again for others). */
export function findStatedLine(
  lines: readonly OcrLine[],
  key: FieldKey,
  stated: StatedFields,
): { reading: Extract<FieldReading, { state: 'read' }>; y0: number; y1: number } | undefined {
  const span = WINDOW[key];
  if (!span || !stated[key as keyof StatedFields]) return undefined;
  let close: { reading: Extract<FieldReading, { state: 'read' }>; y0: number; y1: number } | undefined;
  for (const line of lines) {
    if (zoneLike(line)) continue;
    for (let start = 0; start < line.words.length; start++) {
      for (let n = 1; n <= span && start + n <= line.words.length; n++) {
        const words = line.words.slice(start, start + n);
        const value = windowText(key, words);
        if (!value) continue;
        const agrees = agreement(key, value, stated);
        if (agrees !== 'equal' && agrees !== 'close') continue;
        const confidence = Math.round(words.reduce((sum, w) => sum + w.confidence, 0) / words.length);
        const found = {
          reading: { state: 'read' as const, value, confidence },
          y0: Math.min(...words.map((w) => w.y0)),
          y1: Math.max(...words.map((w) => w.y1)),
        };
        if (agrees === 'equal') return found;
        close ??= found;
      }
    }
  }
  return close;
}

// ---------- the verdict ----------

/** One field as the reader left it, with a second reading of the same crop (another threshold). */
export interface FieldResult {
  key: FieldKey;
  reading: FieldReading;
  /** The second reading, made only where the first would refuse the photo. */
  second?: FieldReading;
  /** `labelOnly`: whether the pixels under the label hold no print (measured by the engine). */
  blank?: boolean;
}

export type PrintedVerdict =
  | { code: 'noText' }
  | { code: 'missingFields'; fields: FieldKey[] }
  | { code: 'wrongFormat'; fields: FieldKey[] }
  | { code: 'badText'; fields: FieldKey[] }
  | null;

/**
 * The printed fields' rule, in this order:
 * - `noText`: nothing at all was read (no field, no label), on a side where neither a zone nor a
 *   barcode was read either (a side whose zone reads shows readable text);
 * - `missingFields`: a required field whose label was read and whose value's place holds no
 *   print (`blank`, measured from the pixels, not from the OCR: an unread value is not a blank one);
 * - `wrongFormat`: a field read confidently whose value breaks its format (an impossible date, a
 *   number off its pattern or its check digits), the second reading too;
 * - `badText`: a field read confidently, in its format, that differs from what the zone or the
 *   barcode states (names after accents and spacing, dates as dates), the second reading too.
 * A field not read (`unread`, or read below FIELD_MIN_CONFIDENCE) refuses nothing and agrees with
 * nothing. A layout whose fields are found by their labels (ICAO's generic page: each issuer
 * places them its own way) refuses nothing either: there a label can be paired with a neighbouring
 * column's value (a TD2 card's surname under its "Document No."), so its readings only fill facts.
 */
export function printedVerdict(
  layout: DocumentLayout,
  results: readonly FieldResult[],
  stated: StatedFields,
  zoneOrBarcodeRead: boolean,
): PrintedVerdict {
  if (layout.located === 'label') return null;
  const anything = results.some((r) => r.reading.state !== 'unread');
  if (!anything && !zoneOrBarcodeRead && results.length > 0) return { code: 'noText' };
  const fieldOf = (key: FieldKey) => layout.fields.find((f) => f.key === key)!;
  const missing = results
    .filter((r) => r.reading.state === 'labelOnly' && r.blank && fieldOf(r.key).required)
    .map((r) => r.key);
  if (missing.length) return { code: 'missingFields', fields: missing };
  const confident = (
    reading: FieldReading | undefined,
  ): reading is Extract<FieldReading, { state: 'read' }> =>
    reading?.state === 'read' && reading.confidence >= FIELD_MIN_CONFIDENCE;
  const wrong = results
    .filter(
      (r) =>
        confident(r.reading) &&
        !validFormat(fieldOf(r.key), r.reading.value) &&
        (r.second === undefined || (confident(r.second) && !validFormat(fieldOf(r.key), r.second.value))),
    )
    .map((r) => r.key);
  if (wrong.length) return { code: 'wrongFormat', fields: wrong };
  const differs = (reading: FieldReading | undefined, key: FieldKey) =>
    confident(reading) &&
    validFormat(fieldOf(key), reading.value) &&
    agreement(key, reading.value, stated) === 'different';
  const bad = results
    .filter((r) => differs(r.reading, r.key) && (r.second === undefined || differs(r.second, r.key)))
    .map((r) => r.key);
  if (bad.length) return { code: 'badText', fields: bad };
  return null;
}

/** Whether the first reading of a field would refuse the photo: its second reading is then made. */
export function wouldRefuse(field: FieldLayout, reading: FieldReading, stated: StatedFields): boolean {
  if (reading.state !== 'read' || reading.confidence < FIELD_MIN_CONFIDENCE) return false;
  if (!validFormat(field, reading.value)) return true;
  return agreement(field.key, reading.value, stated) === 'different';
}

/** The fields a layout's reading gives the person (`Person` keys), values as the print shows them. */
export function printedPerson(results: readonly FieldResult[], layout: DocumentLayout) {
  const person: Partial<Record<FieldKey, string>> = {};
  for (const result of results) {
    const { reading } = result;
    if (reading.state !== 'read' || reading.confidence < FIELD_MIN_CONFIDENCE) continue;
    const field = layout.fields.find((f) => f.key === result.key)!;
    if (!validFormat(field, reading.value)) continue;
    const value =
      field.format === 'date'
        ? isoDate(reading.value)
        : field.format === 'pattern'
          ? patternReading(field, reading.value)
          : reading.value.trim();
    if (value) person[result.key] = value;
  }
  return person;
}
