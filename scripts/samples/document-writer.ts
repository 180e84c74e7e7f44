// Writes a document sample: the card drawn, transformed where a scenario asks, encoded, marked and
// listed in the manifest.
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import type { ErrorCode } from '@/shared/error-codes';
import type { Person } from '@/checks/inputs/node/types';
import type { SampleEntry } from '../../e2e/fixtures/samples';
import { jpeg, render } from './drawing';
import { jpegWithComments, markerTexts, pngWithText } from './markers';
import { add, save } from './output';

export interface DocumentSample {
  file: string;
  docType: SampleEntry['docType'];
  country: string;
  page: 'front' | 'back';
  person: Person;
  svg: string;
  composite?: OverlayOptions[];
  requires?: ('mrz' | 'pdf417')[];
  note: string;
  /** false: no person marker; the service reads `readPerson` (or nobody) from the pixels alone. */
  markPerson?: boolean;
  readPerson?: Person;
}

/**
 * Saves an encoded document photo (JPEG or PNG, by the file name) with its markers and lists it.
 * The marker carries the expected code unless the check measures it from the pixels.
 */
export function saveDocument(
  sample: Omit<DocumentSample, 'svg' | 'composite'> & { otherSideFile?: string },
  expectedCode: ErrorCode | null,
  image: Buffer,
  marker: ErrorCode | null = expectedCode,
) {
  const marked = sample.markPerson !== false;
  const texts = markerTexts(marker ?? undefined, marked ? sample.person : undefined);
  const bytes = sample.file.endsWith('.png') ? pngWithText(image, texts) : jpegWithComments(image, texts);
  save(sample.file, bytes);
  add({
    file: sample.file,
    field: 'document',
    inputType: 'document-photo',
    expectedCode,
    docType: sample.docType,
    country: sample.country,
    page: sample.page,
    requires: sample.requires ?? [],
    otherSideFile: sample.otherSideFile,
    person: marked ? sample.person : sample.readPerson,
    note: sample.note,
  });
  return bytes;
}

export async function writeDocument(
  sample: DocumentSample,
  scenario: ErrorCode | null = null,
  transform?: (image: Sharp) => Sharp,
  /** false: the code is expected from the pixels, no scenario marker is written. */
  markScenario = true,
) {
  let image = render(sample.svg);
  if (sample.composite) image = sharp(await image.composite(sample.composite).png().toBuffer());
  if (transform) image = transform(sharp(await image.png().toBuffer()));
  return saveDocument(sample, scenario, await jpeg(image), markScenario ? scenario : null);
}
