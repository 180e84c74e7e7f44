import type { DocumentType } from '@/shared/flow';

/**
 * Where each document type the flows accept puts what, per revision: one description shared by
 * the printed-field reader (`@/checks/viz`) and template matching (issue 39). Every box is in
 * shares of the straightened document held upright (x, y of its top left corner, w, h), as the
 * finder's outline gives it (`node/document-finder.ts`): a photo where the finder frames nothing
 * (a scan filling the frame) is the document itself.
 *
 * Two kinds of revision are described:
 * - the designs of the project's own samples (`scripts/samples/drawing.ts`, `cardSvg`: the same
 *   drawing for every type, its title, colours and fields per type), whose boxes are measured on
 *   the drawing (card 976 × 606 inside a 1000 × 630 photo; label baseline at 190 + 58·i, value at
 *   214 + 58·i, fields from x 330);
 * - ICAO 9303's data pages (Part 4 for TD3 passports, Part 5 for TD2), whose zones every issuer
 *   keeps (header on top, portrait on the left, personal data on its right, the zone at the
 *   bottom) while each places the fields in them its own way: their fields are found by their
 *   labels inside the personal data zone rather than at a fixed box.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The holder's facts a field prints (the `Person` keys), and the numbers particular types add. */
export type FieldKey =
  | 'lastName'
  | 'firstName'
  | 'fullName'
  | 'dateOfBirth'
  | 'documentNumber'
  | 'expiryDate'
  | 'issueDate'
  | 'curp'
  | 'cpf';

/** How a field's value is judged (`@/checks/viz/printed-fields`). */
export type FieldFormat =
  /** Letters (any script's accents), spaces, hyphens and apostrophes. */
  | 'name'
  /** A calendar date: DD/MM/YYYY, DD.MM.YYYY, `12 AUG/AOUT 74`, `07 JUN 1984`… */
  | 'date'
  /** The field's own `pattern`, on its characters without spaces. */
  | 'pattern';

export interface FieldLayout {
  key: FieldKey;
  /**
   * Where the field's label and value are printed. On an ICAO page, where the issuer decides, the
   * personal data zone: the label finds the field there.
   */
  box: Box;
  /** The label's words printed above or before the value (any of them, accents and case aside). */
  labels: readonly string[];
  format: FieldFormat;
  /** `pattern` fields: the value's characters, without spaces (dots and dashes kept). */
  pattern?: RegExp;
  /** Whether the type must show it: a blank one is `missingFields`. */
  required: boolean;
}

export interface DocumentLayout {
  /** `<type>/<country or icao>/<revision>`. */
  id: string;
  type: DocumentType;
  /** ISO 3166 alpha-2 countries whose documents use it; empty: any (ICAO's generic pages). */
  countries: readonly string[];
  page: 'front' | 'back';
  revision: string;
  /** Long side / short side of the document. */
  aspect: number;
  /** Text of the header, as printed (accents kept). */
  header: readonly string[];
  headerBox: Box;
  portrait?: Box;
  /** The machine-readable zone on this side. */
  zone?: Box;
  /** The PDF417 symbol on this side. */
  barcode?: Box;
  /** Where the fields are printed (the personal data zone). */
  fieldsArea: Box;
  fields: readonly FieldLayout[];
  /**
   * `box`: each field at its own box (read one small crop each); `label`: found by its label in
   * `fieldsArea` (one crop).
   */
  located: 'box' | 'label';
}

/** The samples' drawing: the card inside the photo, in its own pixels. */
const CARD = { x: 12, y: 12, w: 976, h: 606 };
const cardBox = (x: number, y: number, w: number, h: number): Box => ({
  x: round((x - CARD.x) / CARD.w),
  y: round((y - CARD.y) / CARD.h),
  w: round(w / CARD.w),
  h: round(h / CARD.h),
});
const round = (share: number) => Math.round(share * 1000) / 1000;

/** Field i of a sample card: its label's cap height above baseline 190 + 58·i to its value's descenders. */
const cardField = (i: number): Box => cardBox(322, 170 + 58 * i, 666, 58);
const SAMPLE_HEADER = cardBox(12, 12, 976, 110);
const SAMPLE_PORTRAIT = cardBox(50, 160, 240, 300);
const SAMPLE_FIELDS_AREA = cardBox(322, 165, 666, 300);
const SAMPLE_ASPECT = round(CARD.w / CARD.h);

const NAME_LABELS = {
  surname: ['APELLIDO', 'APELLIDOS', 'SURNAME', 'SOBRENOME', 'NOM', 'NAME', 'PRIMARY IDENTIFIER'],
  given: ['NOMBRE', 'NOMBRES', 'GIVEN NAMES', 'PRENOMS', 'PRÉNOMS', 'VORNAMEN', 'SECONDARY IDENTIFIER'],
  birth: [
    'DATE OF BIRTH',
    'FECHA DE NACIMIENTO',
    'NACIMIENTO',
    'DATA DE NASCIMENTO',
    'DATA NASCIMENTO',
    'DATE DE NAISSANCE',
    'GEBURTSTAG',
  ],
  number: [
    'PASSPORT NO',
    'DOCUMENT NO',
    'PASAPORTE N',
    'DOCUMENTO',
    'NO DU PASSEPORT',
    'PASS-NR',
    'DOCUMENT NUMBER',
  ],
};

/** A passport number as ICAO prints it: 9 characters at most in the zone, more in optional data. */
const PASSPORT_NUMBER = /^[A-Z0-9]{5,14}$/;

/**
 * A sample passport's data page (`passport` in scripts/samples/passports.ts): surname, given names,
 * birth date, number, in that order, right of the portrait; the zone at the bottom.
 */
const samplePassport = (country: string, numberPattern: RegExp): DocumentLayout => ({
  id: `passport/${country}/sample`,
  type: 'passport',
  countries: [country],
  page: 'front',
  revision: 'sample',
  aspect: SAMPLE_ASPECT,
  header: ['PASSPORT · PASAPORTE · SPECIMEN'],
  headerBox: SAMPLE_HEADER,
  portrait: SAMPLE_PORTRAIT,
  zone: cardBox(28, 520, 950, 98),
  fieldsArea: SAMPLE_FIELDS_AREA,
  located: 'box',
  fields: [
    { key: 'lastName', box: cardField(0), labels: ['SURNAME'], format: 'name', required: true },
    { key: 'firstName', box: cardField(1), labels: ['GIVEN NAMES'], format: 'name', required: true },
    { key: 'dateOfBirth', box: cardField(2), labels: ['DATE OF BIRTH'], format: 'date', required: true },
    {
      key: 'documentNumber',
      box: cardField(3),
      labels: ['PASSPORT NO'],
      format: 'pattern',
      pattern: numberPattern,
      required: true,
    },
  ],
});

/** ICAO 9303 Part 4's TD3 data page (125 × 88 mm): zone I header, V portrait, II personal data, VII zone. */
const icaoTd3: DocumentLayout = {
  id: 'passport/icao/td3',
  type: 'passport',
  countries: [],
  page: 'front',
  revision: 'icao-9303-td3',
  aspect: 1.42,
  header: [],
  headerBox: { x: 0, y: 0, w: 1, h: 0.16 },
  portrait: { x: 0.03, y: 0.16, w: 0.3, h: 0.56 },
  zone: { x: 0, y: 0.76, w: 1, h: 0.24 },
  fieldsArea: { x: 0.27, y: 0.06, w: 0.73, h: 0.72 },
  located: 'label',
  fields: [
    { key: 'lastName', labels: NAME_LABELS.surname, format: 'name', required: true },
    { key: 'firstName', labels: NAME_LABELS.given, format: 'name', required: false },
    { key: 'dateOfBirth', labels: NAME_LABELS.birth, format: 'date', required: true },
    {
      key: 'documentNumber',
      labels: NAME_LABELS.number,
      format: 'pattern',
      pattern: PASSPORT_NUMBER,
      required: true,
    },
  ].map((field) => ({ ...field, box: { x: 0.27, y: 0.06, w: 0.73, h: 0.72 } }) as FieldLayout),
};

/** A sample ID card's front: its fields, in order, as `cardSvg` draws them. */
const sampleCard = (
  type: DocumentType,
  country: string,
  header: string[],
  /** Each field with its row on the card (rows not listed print what is not judged). */
  fields: (Omit<FieldLayout, 'box'> & { row: number })[],
): DocumentLayout => ({
  id: `${type}/${country}/sample`,
  type,
  countries: [country],
  page: 'front',
  revision: 'sample',
  aspect: SAMPLE_ASPECT,
  header,
  headerBox: SAMPLE_HEADER,
  portrait: SAMPLE_PORTRAIT,
  fieldsArea: SAMPLE_FIELDS_AREA,
  located: 'box',
  fields: fields.map(({ row, ...field }) => ({ ...field, box: cardField(row) })),
});

/** A Brazilian CPF (taxpayer number: 9 digits and 2 check digits), as the RG and the CNH print it. */
const cpfField = (row: number) => ({
  row,
  key: 'cpf' as const,
  labels: ['CPF'],
  format: 'pattern' as const,
  pattern: /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/,
  required: true,
});

/** Every layout, the most particular first: a country's own revision before ICAO's generic page. */
export const DOCUMENT_LAYOUTS: readonly DocumentLayout[] = [
  samplePassport('AR', /^[A-Z]{3}\d{6}$/),
  samplePassport('GB', /^\d{9}$/),
  samplePassport('US', /^[A-Z0-9]{9}$/),
  icaoTd3,
  sampleCard(
    'national-id',
    'AR',
    ['REPÚBLICA ARGENTINA', 'DOCUMENTO NACIONAL DE IDENTIDAD · SPECIMEN'],
    [
      { row: 0, key: 'lastName', labels: ['APELLIDO', 'SURNAME'], format: 'name', required: true },
      { row: 1, key: 'firstName', labels: ['NOMBRE', 'NAME'], format: 'name', required: true },
      { row: 2, key: 'dateOfBirth', labels: ['NACIMIENTO', 'DATE OF BIRTH'], format: 'date', required: true },
      {
        row: 3,
        key: 'documentNumber',
        labels: ['DOCUMENTO', 'DOCUMENT'],
        format: 'pattern',
        // The DNI's 7 or 8 digits, printed with thousands dots.
        pattern: /^\d{1,2}\.?\d{3}\.?\d{3}$/,
        required: true,
      },
      { row: 4, key: 'expiryDate', labels: ['VENCIMIENTO', 'EXPIRY'], format: 'date', required: true },
    ],
  ),
  sampleCard(
    'national-id',
    'MX',
    ['INSTITUTO NACIONAL ELECTORAL', 'MÉXICO · CREDENCIAL PARA VOTAR · SPECIMEN'],
    [
      { row: 0, key: 'fullName', labels: ['NOMBRE'], format: 'name', required: true },
      // The address is printed but not judged (free text).
      {
        row: 2,
        key: 'documentNumber',
        labels: ['CLAVE DE ELECTOR'],
        format: 'pattern',
        // The elector key: 6 letters of the name, YYMMDD, the state (2 digits), H or M, 3 digits.
        pattern: /^[A-Z]{6}\d{8}[HM]\d{3}$/,
        required: true,
      },
      {
        row: 3,
        key: 'curp',
        labels: ['CURP'],
        format: 'pattern',
        pattern: /^[A-Z]{4}\d{6}[HM][A-Z]{5}[A-Z0-9]\d$/,
        required: true,
      },
      { row: 4, key: 'dateOfBirth', labels: ['FECHA DE NACIMIENTO'], format: 'date', required: true },
    ],
  ),
  sampleCard(
    'national-id',
    'BR',
    ['REPÚBLICA FEDERATIVA DO BRASIL', 'CARTEIRA DE IDENTIDADE · SPECIMEN'],
    [
      { row: 0, key: 'fullName', labels: ['NOME'], format: 'name', required: true },
      {
        row: 1,
        key: 'documentNumber',
        labels: ['REGISTRO GERAL'],
        format: 'pattern',
        // The RG number: 8 digits and a check character (São Paulo's form), dots and dash optional.
        pattern: /^\d{1,2}\.?\d{3}\.?\d{3}-?[\dX]$/,
        required: true,
      },
      { row: 2, key: 'dateOfBirth', labels: ['DATA DE NASCIMENTO'], format: 'date', required: true },
      cpfField(3),
      { row: 4, key: 'issueDate', labels: ['DATA DE EXPEDIÇÃO'], format: 'date', required: true },
    ],
  ),
  sampleCard(
    'driving-license',
    'BR',
    ['CARTEIRA NACIONAL DE HABILITAÇÃO', 'BRASIL · DETRAN · SPECIMEN'],
    [
      { row: 0, key: 'fullName', labels: ['NOME'], format: 'name', required: true },
      // The CNH's registration number: 11 digits.
      {
        row: 1,
        key: 'documentNumber',
        labels: ['REGISTRO'],
        format: 'pattern',
        pattern: /^\d{11}$/,
        required: true,
      },
      { row: 2, key: 'dateOfBirth', labels: ['DATA NASCIMENTO'], format: 'date', required: true },
      cpfField(3),
      { row: 4, key: 'expiryDate', labels: ['VALIDADE'], format: 'date', required: true },
    ],
  ),
];

/**
 * The layouts a photo claimed to be this side of this type and country may show, the most
 * particular first (a country's own revisions, then ICAO's generic page for its type).
 */
export function layoutsFor(type: DocumentType, country: string, page: 'front' | 'back'): DocumentLayout[] {
  const state = country.toUpperCase();
  return DOCUMENT_LAYOUTS.filter(
    (layout) =>
      layout.type === type &&
      layout.page === page &&
      (layout.countries.length === 0 || layout.countries.includes(state)),
  );
}
