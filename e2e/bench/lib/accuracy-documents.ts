// The document finder (`@/shared/document-outline`, run by the service's image check) on a folder
// of labelled real photos: every `document` entry must be found (framed, filling the frame, or
// cropped: anything but "no document"), every `face` entry refused as a document; entries under
// the spec's 600×600 minimum are counted apart (the service refuses them before looking). Time is
// the finder's own in the service's code (inspectImage in this process, OpenCV loaded beforehand).
// The zone of each `mrz` document is read as the service reads it, from the whole photo (as before
// the finder) and, where that fails its check digits, from the straightened document.
import sharp from 'sharp';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import { openCvReady } from '@/service/checks/document-finder';
import { inspectImage } from '@/service/checks/image';
import { closeMrzReader, readMrzBands } from '@/service/checks/mrz';
import type { AccuracySection, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

export async function documentsSection(set: EvalSet): Promise<AccuracySection> {
  await openCvReady();
  const docs = set.entries.filter((e) => e.kind === 'document');
  const faces = set.entries.filter((e) => e.kind === 'face');
  const times: number[] = [];
  const verdicts: Record<string, string> = {};
  const small = new Set<string>();
  let zones = 0;
  let readWhole = 0;
  let readEither = 0;
  for (const entry of [...docs, ...faces]) {
    const { width = 0, height = 0 } = await sharp(entry.path).metadata();
    if (Math.min(width, height) < MIN_IMAGE_SIDE) small.add(entry.file);
    const zone = entry.kind === 'document' && entry.expect === 'mrz';
    const inspected = await inspectImage(entry.path, { document: true, mrz: zone });
    const outline = inspected.ok ? inspected.document : undefined;
    verdicts[entry.file] = outline?.verdict ?? 'unreadable';
    if (outline) times.push(outline.ms);
    if (zone && inspected.ok) {
      zones++;
      const whole = await readMrzBands(inspected.mrzBands ?? []);
      const valid = whole.found && whole.valid;
      if (valid) readWhole++;
      const crop =
        !valid && inspected.mrzCropBands?.length ? await readMrzBands(inspected.mrzCropBands) : undefined;
      if (valid || (crop?.found && crop.valid)) readEither++;
    }
  }
  await closeMrzReader();
  const missed = docs.filter((e) => verdicts[e.file] === 'none' || verdicts[e.file] === 'unreadable');
  const accepted = faces.filter((e) => verdicts[e.file] !== 'none');
  const count = (kind: string) => docs.filter((e) => verdicts[e.file] === kind).length;
  const large = docs.filter((e) => !small.has(e.file));
  const figures = {
    documents: docs.length,
    documentsFound: docs.length - missed.length,
    documentsAtLeast600: large.length,
    documentsAtLeast600Found: large.length - missed.filter((e) => !small.has(e.file)).length,
    framed: count('framed'),
    fullFrame: count('fullFrame'),
    cropped: count('cropped'),
    faces: faces.length,
    facesRefused: faces.length - accepted.length,
    zones,
    zonesReadWholePhoto: readWhole,
    zonesReadWholeOrStraightened: readEither,
    msP50: median(times),
    msP99: percentile(times, 99),
  };
  return {
    name: 'documents found (service)',
    lines: [
      `documents found ${figures.documentsFound}/${docs.length} (framed ${figures.framed}, filling the frame ${figures.fullFrame}, cropped ${figures.cropped}); of at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} px ${figures.documentsAtLeast600Found}/${large.length}`,
      `face photos refused as documents ${figures.facesRefused}/${faces.length}`,
      `zones read (check digits pass) ${readWhole}/${zones} from the whole photo, ${readEither}/${zones} with the straightened document where that fails`,
      `finder time per image p50 ${figures.msP50} ms, p99 ${figures.msP99} ms`,
      ...missed.map((e) => `  missed document${small.has(e.file) ? ' (under 600 px)' : ''}: ${e.file}`),
      ...accepted.map((e) => `  face taken for a document (${verdicts[e.file]}): ${e.file}`),
    ],
    figures,
  };
}
