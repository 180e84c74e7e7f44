import type { DocumentLayout, FieldKey } from '@/checks/document/field-layouts';
import {
  agreement,
  printedPerson,
  printedVerdict,
  type FieldResult,
  type StatedFields,
} from '@/checks/viz/printed-fields';
import type { VizCrop } from '@/checks/viz/node/viz-crops';
import { vizLanguage } from '@/checks/viz/node/viz-ocr';
import { readPrintedFields } from '@/checks/viz/node/viz-read';
import type { InputFacts, PrintedFieldFact } from '@/checks/inputs/node/types';
import { whyNotRun } from './face-checks';

/**
 * The layout a document side is read with: of those its type and country may show, the one whose
 * shape is nearest the document's (the framed outline's aspect, else the photo's).
 */
export function printedLayout(
  layouts: readonly DocumentLayout[],
  aspect: number | undefined,
): DocumentLayout | undefined {
  if (!aspect) return layouts[0];
  const off = (layout: DocumentLayout) => Math.abs(Math.log(aspect / layout.aspect));
  return [...layouts].sort((a, b) => off(a) - off(b))[0];
}

const messages = {
  noText: 'no text was found on the document',
  missingFields: 'the document lacks required fields',
  wrongFormat: 'some document fields have an invalid format',
  badText: 'a printed field differs from the machine-readable zone or barcode',
} as const;

const fieldFact = (result: FieldResult, stated: StatedFields): PrintedFieldFact => {
  const { reading } = result;
  if (reading.state === 'read')
    return {
      state: 'read',
      value: reading.value,
      confidence: reading.confidence,
      agreement: agreement(result.key, reading.value, stated),
    };
  return { state: reading.state === 'labelOnly' && result.blank ? 'blank' : reading.state };
};

/**
 * Reads the printed fields of a layout and judges them (`printedVerdict`), recording in the facts
 * each field's reading (`facts.printed`) and filling the person's facts that neither the zone nor
 * the barcode gave, with their source (`facts.personSources`). An OCR that cannot run refuses
 * nothing: the side is marked `notChecked.printedFields` (processing then reports the document's
 * reading as not checked).
 */
export async function judgePrintedFields(
  layout: DocumentLayout,
  crops: readonly VizCrop[],
  country: string,
  stated: StatedFields | undefined,
  facts: InputFacts,
): Promise<{ code: keyof typeof messages; message: string } | null> {
  const started = performance.now();
  let results: FieldResult[];
  try {
    results = await readPrintedFields(layout, crops, vizLanguage(country), stated ?? {});
  } catch (error) {
    facts.notChecked = {
      ...facts.notChecked,
      printedFields: `the printed fields could not be read: ${whyNotRun(error)}`,
    };
    return null;
  }
  const fields: Partial<Record<FieldKey, PrintedFieldFact>> = {};
  for (const result of results) fields[result.key] = fieldFact(result, stated ?? {});
  facts.printed = { layout: layout.id, fields, ms: Math.round(performance.now() - started) };

  const sources = { ...facts.personSources };
  const person = facts.person ?? { fullName: '' };
  for (const [key, value] of Object.entries(printedPerson(results, layout)) as [FieldKey, string][]) {
    if (person[key]) continue;
    person[key] = value;
    sources[key] = 'print';
  }
  if (!person.fullName && (person.firstName || person.lastName)) {
    person.fullName = [person.firstName, person.lastName].filter(Boolean).join(' ');
    sources.fullName = 'print';
  }
  if (person.fullName) facts.person = person;
  if (Object.keys(sources).length) facts.personSources = sources;

  const verdict = printedVerdict(layout, results, stated ?? {}, stated !== undefined);
  if (!verdict) return null;
  const named = 'fields' in verdict ? ` (${verdict.fields.join(', ')})` : '';
  return { code: verdict.code, message: `${messages[verdict.code]}${named}` };
}
