import type { DocumentLayout } from '@/checks/document/field-layouts';
import {
  BLANK_MAX_INK,
  readField,
  wouldRefuse,
  type FieldResult,
  type OcrLine,
  type StatedFields,
} from '@/checks/viz/printed-fields';
import { inkShare, type VizCrop, type VizCropJob } from './viz-crops';
import { ocrLines, type VizLanguage } from './viz-ocr';

/** The key of the one crop a layout whose fields are found by their labels is read from. */
export const FIELDS_AREA = 'fieldsArea';

/** The crops a layout is read from: each field's box, or its personal data zone once. */
export function layoutCrops(layout: DocumentLayout): VizCropJob[] {
  if (layout.located === 'label') return [{ key: `${layout.id}#${FIELDS_AREA}`, box: layout.fieldsArea }];
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
 * first reading would refuse the photo.
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
    if (!lines) linesOf.set(id, (lines = ocrLines(crop[form], language, page)));
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
  return results;
}
