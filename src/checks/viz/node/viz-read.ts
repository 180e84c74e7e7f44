import type { DocumentLayout } from '@/checks/document/field-layouts';
import {
  agreement,
  BLANK_MAX_INK,
  findStated,
  readField,
  wouldRefuse,
  type FieldResult,
  type OcrLine,
  type StatedFields,
} from '@/checks/viz/printed-fields';
import { inkShare, type VizCrop, type VizCropJob } from './viz-crops';
import { ocrLines, type OcrLayout, type VizLanguage, type VizModel } from './viz-ocr';

/** The key of the one crop a layout whose fields are found by their labels is read from. */
export const FIELDS_AREA = 'fieldsArea';

/**
 * The document's width a page read by its labels is scaled to: its fields' print is smaller than a
 * sample card's (a TD3 page's 2–3 mm letters), which the OCR loses at VIZ_DOCUMENT_WIDTH.
 */
const PAGE_DOCUMENT_WIDTH = 1600;

/** The crops a layout is read from: each field's box, or its personal data zone once. */
export function layoutCrops(layout: DocumentLayout): VizCropJob[] {
  if (layout.located === 'label')
    return [
      {
        key: `${layout.id}#${FIELDS_AREA}`,
        box: layout.fieldsArea,
        documentWidth: PAGE_DOCUMENT_WIDTH,
        // ICAO's TD3 page: placed by its zone where the finder frames no document.
        byZone: layout.type === 'passport',
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
 * label did not give them (`findStated`): in the page's lines, then, while one is still missing, in
 * the page read in grey (the OCR's own threshold: bold print the local one thins) and in a sparse
 * reading of the thresholded crop (the text the layout analysis lost on guilloches).
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
  const read = (
    crop: VizCrop,
    form: 'binary' | 'grey',
    how: OcrLayout = page ? 'page' : 'block',
    model: VizModel = language,
  ) => {
    const id = `${crop.key}/${form}/${how}/${model}`;
    let lines = linesOf.get(id);
    if (!lines) linesOf.set(id, (lines = ocrLines(crop[form], model, how)));
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
  if (!area) return results;
  const agrees = (result: FieldResult) =>
    result.reading.state === 'read' && agreement(result.key, result.reading.value, stated) === 'equal';
  const passes = [
    ['binary', 'page', language],
    ['grey', 'page', language],
    ['binary', 'sparse', language],
    ['binary', 'sparse', 'mrz'],
  ] as const;
  for (const [form, how, model] of passes) {
    const wanted = results.filter(
      (r) =>
        !agrees(r) &&
        stated[r.key as keyof StatedFields] &&
        // The OCR-B model reads capitals and digits: numbers only.
        (model !== 'mrz' || r.key === 'documentNumber'),
    );
    if (!wanted.length) continue;
    const lines = await read(area, form, how, model);
    for (const result of wanted) {
      const found = findStated(lines, result.key, stated);
      if (
        found &&
        ((found.state === 'read' && agreement(result.key, found.value, stated) === 'equal') ||
          result.reading.state !== 'read')
      )
        result.reading = found;
    }
  }
  return results;
}
