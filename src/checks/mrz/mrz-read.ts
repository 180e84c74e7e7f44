/**
 * The order in which the service (`src/checks/mrz/node/mrz.ts`) and the wizard
 * (`src/checks/mrz/browser/check-mrz.ts`) read the bands of a photo, written once: each side
 * brings its own OCR (tesseract.js in a worker thread or a web worker) and parser (`mrz`).
 *
 * For each band, lowest first: the glyph reader's zone when it was sure of it (no OCR); else the
 * OCR with the MRZ-trained model, the band turned half a turn when that reads nothing (a document
 * upside down), then the band with its contrast evened out (glare across part of it); else the
 * English model, whose reading stands only with the name line the MRZ model
 * read (no check digit covers names, and the English model reads OCR-B's filler as `K`/`L`). Every
 * OCR reading is corrected by field and check digit (`correctMrz`). The first valid zone wins,
 * else the first zone read.
 */
import { mrzLines, parseMrzLines, type MrzParseResult, type MrzRead } from './document-reading';
import { correctMrz } from './mrz-fields';

export type MrzModel = 'mrz' | 'eng';

/**
 * A band as a reader holds it: its image for the OCR, the same turned half a turn, the glyph
 * reader's zone, and the characters the upright band's pixels leave open per position
 * (`glyphsOfBand`), which bound the check digits' swaps in the OCR's reading of it.
 */
export interface MrzBandCandidate<Image> {
  image: Image;
  turned?: Image;
  /** The band with its contrast evened out (`evenContrast`: glare across part of it), read when it as it is reads nothing valid. */
  evened?: Image;
  byGlyphs?: MrzRead;
  plausible?: readonly (readonly string[])[];
}

export interface MrzReaders<Image> {
  /** The OCR's text of a band image with one model. */
  ocr: (image: Image, model: MrzModel) => Promise<string>;
  /** The `mrz` package's `parse`. */
  parse: (lines: string[]) => MrzParseResult;
  /** Whether a state code is listed (the `mrz` package's `states`). */
  isState: (code: string) => boolean;
}

/** Reads the first valid zone of the bands (see above); none is no MRZ, without running the OCR. */
export async function readMrzBandsWith<Image>(
  bands: readonly MrzBandCandidate<Image>[],
  { ocr, parse, isState }: MrzReaders<Image>,
): Promise<MrzRead> {
  const read = async (
    image: Image,
    model: MrzModel,
    plausible?: readonly (readonly string[])[],
  ): Promise<MrzRead> => {
    const lines = mrzLines(await ocr(image, model));
    return lines.length === 0
      ? { found: false }
      : parseMrzLines(correctMrz(lines, isState, plausible), parse);
  };
  let first: MrzRead = { found: false };
  for (const band of bands) {
    if (band.byGlyphs) return band.byGlyphs;
    let byModel = await read(band.image, 'mrz', band.plausible);
    if (!byModel.found && band.turned !== undefined) byModel = await read(band.turned, 'mrz');
    if (byModel.found && byModel.valid) return byModel;
    if (band.evened !== undefined) {
      const evened = await read(band.evened, 'mrz', band.plausible);
      if (evened.found && evened.valid) return evened;
    }
    const english = await read(band.image, 'eng', band.plausible);
    if (english.found && english.valid && sameNames(byModel, english)) return english;
    if (!first.found) first = byModel.found ? byModel : english;
  }
  return first;
}

/** Whether the MRZ model read the English model's name line too (or nothing at all). */
function sameNames(byModel: MrzRead, english: MrzRead & { found: true }) {
  if (!byModel.found) return true;
  const nameLine = (lines: string[]) => lines[lines.length === 3 ? 2 : 0];
  return nameLine(byModel.lines) === nameLine(english.lines);
}
