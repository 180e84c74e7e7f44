import type { DocumentLayout, FieldKey } from '@/checks/document/field-layouts';
import { fieldStrip, type Placed } from '@/checks/viz/field-strips';
import {
  agreement,
  BLANK_MAX_INK,
  findStatedLine,
  readField,
  wouldRefuse,
  type FieldResult,
  type OcrLine,
  type StatedFields,
} from '@/checks/viz/printed-fields';
import { inkShare, pgmRows, type VizCrop, type VizCropJob } from './viz-crops';
import { ocrLines, type OcrLayout, type VizLanguage, type VizModel } from './viz-ocr';

/** The key of the one crop a layout whose fields are found by their labels is read from. */
export const FIELDS_AREA = 'fieldsArea';

/** The key of the same zone cut finer: the strips read again where a field is still missing. */
export const FIELDS_AREA_FINE = 'fieldsAreaFine';

/**
 * The document's width the strips read again are scaled to: a TD3 page's print (2–3 mm letters)
 * is smaller than a sample card's, and the OCR loses some of it at VIZ_DOCUMENT_WIDTH, where the
 * whole page is read first (at this width its reading costs ~1.5× as much).
 */
const FINE_DOCUMENT_WIDTH = 1600;

/** The crops a layout is read from: each field's box, or its personal data zone (and finer). */
export function layoutCrops(layout: DocumentLayout): VizCropJob[] {
  // ICAO's TD3 page: placed by its zone where the finder frames no document.
  const byZone = layout.type === 'passport';
  if (layout.located === 'label')
    return [
      { key: `${layout.id}#${FIELDS_AREA}`, box: layout.fieldsArea, byZone },
      {
        key: `${layout.id}#${FIELDS_AREA_FINE}`,
        box: layout.fieldsArea,
        documentWidth: FINE_DOCUMENT_WIDTH,
        byZone,
      },
    ];
  return layout.fields.map((field) => ({ key: `${layout.id}#${field.key}`, box: field.box }));
}

/** Under a label with nothing read below it: whether the value's place holds no print at all. */
function blankUnder(crop: VizCrop, reading: Extract<FieldResult['reading'], { state: 'labelOnly' }>) {
  const { labelBottom, labelHeight } = reading;
  const ink = inkShare(
    crop.binary,
    crop.width,
    crop.height,
    labelBottom + 0.3 * labelHeight,
    labelBottom + 2.5 * labelHeight,
  );
  return ink < BLANK_MAX_INK;
}

/**
 * Reads a layout's fields from its crops: one OCR per field box (or one of the personal data zone),
 * and a second one of the same crop in grey, with the OCR's own threshold, only for a field whose
 * first reading would refuse the photo. A layout whose fields are found by their labels (ICAO's
 * generic page) also looks for the stated values (the zone's) anywhere in the print where its
 * label did not give them (`findInStrips`).
 */
export async function readPrintedFields(
  layout: DocumentLayout,
  crops: readonly VizCrop[],
  language: VizLanguage,
  stated: StatedFields,
): Promise<FieldResult[]> {
  const cropOf = (key: string) => crops.find((c) => c.key === `${layout.id}#${key}`);
  const page = layout.located === 'label';
  const linesOf = new Map<string, Promise<OcrLine[]>>();
  const read = (crop: VizCrop, form: 'binary' | 'grey') => {
    const id = `${crop.key}/${form}`;
    let lines = linesOf.get(id);
    if (!lines) linesOf.set(id, (lines = ocrLines(crop[form], language, page ? 'page' : 'block')));
    return lines;
  };
  const results: FieldResult[] = [];
  for (const field of layout.fields) {
    const crop = cropOf(page ? FIELDS_AREA : field.key);
    if (!crop) continue;
    const reading = readField(await read(crop, 'binary'), field);
    const result: FieldResult = { key: field.key, reading };
    if (reading.state === 'labelOnly') result.blank = blankUnder(crop, reading);
    if (wouldRefuse(field, reading, stated)) result.second = readField(await read(crop, 'grey'), field);
    results.push(result);
  }
  const area = page ? cropOf(FIELDS_AREA) : undefined;
  const fine = page ? cropOf(FIELDS_AREA_FINE) : undefined;
  if (area && fine) await findInStrips(area, fine, results, await read(area, 'binary'), language, stated);
  return results;
}

/**
 * At most this many extra OCR passes per document, each of one strip (~0.1–0.3 s of CPU; the whole
 * page's cost 0.2–1.3 s, which made a verification twice as slow).
 */
export const MAX_STRIP_PASSES = 4;

/**
 * The readings of a strip, in the order tried: a number by the zone's OCR-B model first (many
 * issuers print it in OCR-B, whose 0, O, 4 and T the language models confuse; it reads capitals and
 * digits only, so numbers alone), then in grey (bold print the local threshold thins), then sparse
 * (lines the layout analysis lost on guilloches).
 */
function stripPasses(key: FieldKey, language: VizLanguage) {
  const passes: ['binary' | 'grey', OcrLayout, VizModel][] = [
    ['grey', 'page', language],
    ['binary', 'sparse', language],
  ];
  return key === 'documentNumber' ? [['binary', 'sparse', 'mrz'] as const, ...passes] : passes;
}

/** The fields looked for in that order: the zone's surname, number and birth date before the given names. */
const PRIORITY: readonly FieldKey[] = ['lastName', 'documentNumber', 'dateOfBirth', 'firstName'];
const rank = (key: FieldKey) => (PRIORITY.includes(key) ? PRIORITY.indexOf(key) : PRIORITY.length);

/**
 * The stated values (the zone's) found in a page's print where its labels did not give them
 * (`findStatedLine`): first in the page's own lines, then, while one is still missing, in the strip
 * its neighbours place it in (`fieldStrip`), read again in grey, sparse and (numbers only) by the
 * zone's OCR-B model; never the whole page again, at most MAX_STRIP_PASSES passes, none once every
 * stated field is found.
 */
async function findInStrips(
  area: VizCrop,
  fine: VizCrop,
  results: FieldResult[],
  pageLines: OcrLine[],
  language: VizLanguage,
  stated: StatedFields,
) {
  const placed: Placed[] = [];
  const agrees = (result: FieldResult) =>
    result.reading.state === 'read' && agreement(result.key, result.reading.value, stated) === 'equal';
  // A strip's lines are placed on the page: `y0` its top there, `scale` the fine crop's to the page's.
  const take = (result: FieldResult, lines: readonly OcrLine[], strip?: { y0: number; scale: number }) => {
    const found = findStatedLine(lines, result.key, stated);
    if (!found) return;
    if (!agrees(result)) {
      const equal = agreement(result.key, found.reading.value, stated) === 'equal';
      if (!equal && result.reading.state === 'read') return;
      result.reading = found.reading;
    }
    const { y0 = 0, scale = 1 } = strip ?? {};
    const at = { key: result.key, y0: y0 + found.y0 / scale, y1: y0 + found.y1 / scale };
    placed.splice(0, placed.length, ...placed.filter((p) => p.key !== result.key), at);
  };
  const missing = () => results.filter((r) => stated[r.key as keyof StatedFields] && !agrees(r));
  // The page's lines place what they hold: the fields read by their labels as much as the others.
  for (const result of results) if (stated[result.key as keyof StatedFields]) take(result, pageLines);
  let passes = 0;
  const tried = new Set<string>();
  for (const result of missing().sort((x, y) => rank(x.key) - rank(y.key))) {
    const labelled = result.reading.state === 'labelOnly' ? result.reading : undefined;
    const strip = labelled
      ? {
          y0: Math.max(0, Math.round(labelled.labelBottom - 0.3 * labelled.labelHeight)),
          y1: Math.min(area.height, Math.round(labelled.labelBottom + 2.5 * labelled.labelHeight)),
        }
      : fieldStrip(result.key, placed, area.height);
    if (!strip) continue;
    for (const [form, how, model] of stripPasses(result.key, language)) {
      if (agrees(result) || passes >= MAX_STRIP_PASSES) break;
      const id = `${strip.y0}-${strip.y1}/${form}/${how}/${model}`;
      if (tried.has(id)) continue;
      tried.add(id);
      passes++;
      const scale = fine.height / area.height;
      const [y0, y1] = [Math.round(strip.y0 * scale), Math.min(fine.height, Math.round(strip.y1 * scale))];
      if (y1 - y0 < 2) break;
      const image = pgmRows(fine[form], fine.width, fine.height, y0, y1);
      const lines = await ocrLines(image, model, how);
      // A strip may hold other missing fields too (a number beside the surname's line).
      for (const other of missing()) take(other, lines, { y0: strip.y0, scale });
    }
    if (!missing().length || passes >= MAX_STRIP_PASSES) break;
  }
}
