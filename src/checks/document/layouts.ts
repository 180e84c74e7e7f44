/**
 * The known revisions (layouts) of the identity documents the flows accept, written once: template
 * matching (`template-matching.ts`) matches a photographed document against them, and the printed
 * fields' reader may find its fields by the same boxes. Coordinates are shares of the document's
 * width and height, the document upright and landscape (x from its left edge, y from its top).
 *
 * What the boxes say is the layout level ICAO 9303 fixes (Part 4 for TD3 pages, Part 5 for TD1 and
 * Part 6 for TD2: the zone's lines at the foot, the portrait's zone V at the left) and what the
 * national revisions show of it; they are drawn from the published layouts, not measured on any
 * one card, and are as wide as the designs within one revision differ. A box names where a feature
 * sits; a revision leaves a feature out where it does not say (a country's passport inherits
 * ICAO's TD3 page).
 */

/** A box on the document, as shares of its width and height. */
export interface LayoutBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The machine-readable zone's format (ICAO 9303): 3×30 (TD1), 2×36 (TD2), 2×44 (TD3). */
export type ZoneFormat = 'TD1' | 'TD2' | 'TD3';

/** What one side of a revision shows, and where. */
export interface LayoutSide {
  /** Where the holder's portrait is printed. */
  portrait?: LayoutBox;
  /** Other places the portrait may sit within the same revision (ICAO lets TD1 cards mirror it). */
  portraitAlternatives?: LayoutBox[];
  /** The machine-readable zone: its format and its band. */
  zone?: { format: ZoneFormat; box: LayoutBox };
  /** A PDF417 or 2D code printed on this side. */
  barcode?: { kind: 'pdf417' | 'qr'; box: LayoutBox };
  /** Printed fields by key (the document-reading field keys: `documentNumber`, `surname`…). */
  fields?: Record<string, LayoutBox>;
  /** The printed header's words (upper case, no accents), any of which names the revision. */
  header?: string[];
}

/** The document's shape: an ID-1 card (85.6×54 mm), an ID-2 card (105×74) or an ID-3 page (125×88). */
export type LayoutShape = 'ID-1' | 'ID-2' | 'ID-3';

/** Long side / short side of each shape. */
export const shapeAspect: Record<LayoutShape, number> = {
  'ID-1': 85.6 / 54,
  'ID-2': 105 / 74,
  'ID-3': 125 / 88,
};

export interface DocumentRevision {
  id: string;
  name: string;
  type: 'passport' | 'national-id' | 'driving-license';
  /** ISO 3166 alpha-2, or `*`: ICAO's layouts, for a country of which no revision is written here. */
  country: string;
  shape: LayoutShape;
  front: LayoutSide;
  back?: LayoutSide;
  /** Whether the revision may still be presented. */
  valid: boolean;
  /** The last day it may be presented (ISO date), where it is known. */
  validUntil?: string;
  /** Why the revision is described so, or what is not known of it. */
  note?: string;
}

// ICAO 9303's zones, shared by every revision built on them.
const td3Zone = { format: 'TD3', box: { x: 0.02, y: 0.74, w: 0.96, h: 0.24 } } as const;
const td2Zone = { format: 'TD2', box: { x: 0.02, y: 0.72, w: 0.96, h: 0.26 } } as const;
const td1Zone = { format: 'TD1', box: { x: 0.03, y: 0.6, w: 0.94, h: 0.38 } } as const;
/** Zone V of a TD3 page: left of the data, above the zone. */
const pagePortrait: LayoutBox = { x: 0.02, y: 0.14, w: 0.36, h: 0.62 };
/** Zone V of an ID-1 card's front, at the left (its mirror at the right where ICAO allows it). */
const cardPortrait: LayoutBox = { x: 0.02, y: 0.14, w: 0.38, h: 0.84 };
const cardPortraitRight: LayoutBox = { x: 0.6, y: 0.14, w: 0.38, h: 0.84 };
/** Zone V of an ID-2 card, above its zone. */
const td2Portrait: LayoutBox = { x: 0.02, y: 0.12, w: 0.38, h: 0.64 };

export const revisions: readonly DocumentRevision[] = [
  // Passports of any country: every machine-readable passport is a TD3 data page. A page without a
  // zone is one ICAO took out of circulation.
  {
    id: 'icao-td3',
    name: 'Machine-readable passport, ICAO 9303 TD3 data page',
    type: 'passport',
    country: '*',
    shape: 'ID-3',
    front: {
      portrait: pagePortrait,
      zone: td3Zone,
      fields: {
        surname: { x: 0.36, y: 0.2, w: 0.6, h: 0.08 },
        documentNumber: { x: 0.66, y: 0.14, w: 0.32, h: 0.08 },
      },
    },
    valid: true,
  },
  {
    id: 'non-mrp',
    name: 'Passport without a machine-readable zone',
    type: 'passport',
    country: '*',
    shape: 'ID-3',
    front: { portrait: pagePortrait },
    valid: false,
    validUntil: '2015-11-24',
    note: "ICAO's deadline for non-machine-readable passports to leave circulation (Doc 9303, Annex 9)",
  },
  // ID cards of any country, at the layout level: TD1 (zone on the back) and TD2 (zone on the front).
  {
    id: 'icao-td1',
    name: 'Machine-readable ID card, ICAO 9303 TD1',
    type: 'national-id',
    country: '*',
    shape: 'ID-1',
    front: { portrait: cardPortrait, portraitAlternatives: [cardPortraitRight] },
    back: { zone: td1Zone },
    valid: true,
  },
  {
    id: 'icao-td1-front-zone',
    name: 'Machine-readable ID card, ICAO 9303 TD1, zone on the portrait side',
    type: 'national-id',
    country: '*',
    shape: 'ID-1',
    front: { portrait: cardPortrait, portraitAlternatives: [cardPortraitRight], zone: td1Zone },
    valid: true,
    note: 'some cards (US passport card, Macau) print the zone beside the portrait',
  },
  {
    id: 'icao-td2',
    name: 'Machine-readable ID card, ICAO 9303 TD2',
    type: 'national-id',
    country: '*',
    shape: 'ID-2',
    front: { portrait: td2Portrait, zone: td2Zone },
    valid: true,
  },
  {
    id: 'iso-18013-card',
    name: 'Driving licence card, ISO/IEC 18013-1 (ID-1)',
    type: 'driving-license',
    country: '*',
    shape: 'ID-1',
    front: { portrait: cardPortrait, portraitAlternatives: [cardPortraitRight] },
    valid: true,
  },
  // Argentina: the DNI card since 2012 (RENAPER), the booklets before it.
  {
    id: 'ar-dni-card-2012',
    name: 'DNI card (RENAPER, 2012–)',
    type: 'national-id',
    country: 'AR',
    shape: 'ID-1',
    front: {
      portrait: cardPortrait,
      barcode: { kind: 'pdf417', box: { x: 0.4, y: 0.6, w: 0.58, h: 0.38 } },
      header: ['REPUBLICA ARGENTINA'],
      fields: {
        surname: { x: 0.32, y: 0.22, w: 0.5, h: 0.1 },
        documentNumber: { x: 0.32, y: 0.52, w: 0.4, h: 0.1 },
      },
    },
    back: {
      zone: td1Zone,
      barcode: { kind: 'pdf417', box: { x: 0.02, y: 0.05, w: 0.96, h: 0.5 } },
    },
    valid: true,
    note: 'the PDF417 sits on the front of the newer cards and on the back of the first ones',
  },
  {
    id: 'ar-dni-booklet',
    name: 'DNI booklet (libreta verde or celeste)',
    type: 'national-id',
    country: 'AR',
    shape: 'ID-3',
    front: { portrait: pagePortrait, header: ['REPUBLICA ARGENTINA'] },
    valid: false,
    note: 'RENAPER ended the booklets as identity documents in favour of the card (2017); the exact day is not in hand',
  },
  // Mexico: the voting credential, issued by the INE since 2014 and by the IFE before it.
  {
    id: 'mx-ine-2014',
    name: 'INE voting credential (2014–)',
    type: 'national-id',
    country: 'MX',
    shape: 'ID-1',
    front: {
      portrait: cardPortrait,
      header: ['INSTITUTO NACIONAL ELECTORAL'],
      fields: {
        fullName: { x: 0.32, y: 0.22, w: 0.64, h: 0.16 },
        address: { x: 0.32, y: 0.38, w: 0.64, h: 0.16 },
        curp: { x: 0.32, y: 0.6, w: 0.45, h: 0.08 },
      },
    },
    back: { zone: td1Zone, barcode: { kind: 'qr', box: { x: 0.02, y: 0.05, w: 0.5, h: 0.5 } } },
    valid: true,
  },
  {
    id: 'mx-ife',
    name: 'IFE voting credential (before 2014)',
    type: 'national-id',
    country: 'MX',
    shape: 'ID-1',
    front: { portrait: cardPortrait, header: ['INSTITUTO FEDERAL ELECTORAL'] },
    back: { zone: td1Zone },
    valid: false,
    note: "the IFE's last credentials (issued until 2014, ten years' validity) have all run out; only the header tells it from the INE's",
  },
  // Brazil: the national identity card (CIN) since 2022, the states' RG before it.
  {
    id: 'br-cin-2022',
    name: 'Carteira de Identidade Nacional (2022–)',
    type: 'national-id',
    country: 'BR',
    shape: 'ID-1',
    front: { portrait: cardPortrait, header: ['REPUBLICA FEDERATIVA DO BRASIL'] },
    back: { zone: td1Zone, barcode: { kind: 'qr', box: { x: 0.6, y: 0.05, w: 0.38, h: 0.55 } } },
    valid: true,
  },
  {
    id: 'br-rg',
    name: 'Registro Geral (state-issued)',
    type: 'national-id',
    country: 'BR',
    shape: 'ID-1',
    front: { portrait: cardPortrait, header: ['REPUBLICA FEDERATIVA DO BRASIL'] },
    valid: true,
    validUntil: '2032-02-28',
    note: 'Decree 10.977/2022 keeps the RG valid until 28 February 2032',
  },
  {
    id: 'br-cnh-2017',
    name: 'Carteira Nacional de Habilitação (QR code model, 2017–)',
    type: 'driving-license',
    country: 'BR',
    shape: 'ID-1',
    front: { portrait: cardPortrait, header: ['CARTEIRA NACIONAL DE HABILITACAO'] },
    valid: true,
  },
];

/**
 * The revisions a document of this type and country is matched against: the country's own where
 * any are written, else ICAO's layouts (`*`).
 */
export function revisionsOf(type: string, country: string): DocumentRevision[] {
  const ofType = revisions.filter((r) => r.type === type);
  const own = ofType.filter((r) => r.country === country);
  return own.length ? own : ofType.filter((r) => r.country === '*');
}
