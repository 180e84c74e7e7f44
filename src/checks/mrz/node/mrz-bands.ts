import { parse, states } from 'mrz';
import sharp from 'sharp';
import { MRZ_OCR_MAX_HEIGHT, MRZ_OCR_WIDTH, type MrzRead } from '@/checks/mrz/document-reading';
import {
  evenContrast,
  halfTurn,
  levelledMrzBands,
  mrzGrey,
  pgm,
  stretchContrast,
} from '@/checks/mrz/mrz-band';
import { MAX_IMAGE_PIXELS } from '@/shared/limits';
import { glyphsOfBand } from '@/checks/mrz/mrz-glyphs';

/**
 * The MRZ bands of a document photo (lowest band first; none when no MRZ-like lines are found),
 * from grey pixels MRZ_OCR_WIDTH wide, each as an image for the OCR, with the zone itself when the
 * glyph reader read it alone (`@/checks/mrz/mrz-glyphs`). No OCR here: this runs in the image workers,
 * beside the metrics, on the same decode where its width fits.
 */

/**
 * A band: its pixels for the OCR (binary PGM), the same turned half a turn (read when the band
 * reads as nothing upright: a document upside down), and the zone when the glyph reader read it
 * alone (either way up).
 */
export interface MrzBandRead {
  pgm: Uint8Array;
  turnedPgm?: Uint8Array;
  /** The band with its contrast evened out (glare across part of it), for the OCR. */
  evenedPgm?: Uint8Array;
  byGlyphs?: MrzRead;
  /** Per line and position, the characters the upright band's pixels leave open (the glyph reader's). */
  plausible?: string[][];
}

/** A decode this wide (a landscape photo at the metrics' 1024) is read as it is; MRZ_OCR_WIDTH is 1000. */
const SHARED_DECODE_MAX_WIDTH = 1024;

/** RGBA or RGB pixels of the one decode, when their width is what the OCR reads at. */
export interface DecodedPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Whether the `mrz` package lists a state code. */
export const isState = (code: string) => Object.hasOwn(states, code);

/** Bands from the one decode when its width suits the OCR, else from a grey decode of the file. */
export async function mrzBandImages(path: string, decoded?: DecodedPixels): Promise<MrzBandRead[]> {
  let grey: Uint8Array;
  let width: number;
  let height: number;
  if (decoded && decoded.width >= MRZ_OCR_WIDTH && decoded.width <= SHARED_DECODE_MAX_WIDTH) {
    ({ width, height } = decoded);
    grey = mrzGrey(decoded.data, decoded.channels);
  } else {
    // A portrait, small or barcode-sized decode: the OCR's own width (small images enlarged).
    const { data, info } = await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: MRZ_OCR_WIDTH, height: MRZ_OCR_MAX_HEIGHT, fit: 'inside', withoutEnlargement: false })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    ({ width, height } = info);
    grey = new Uint8Array(data.buffer, data.byteOffset, width * height);
  }
  const stretched = stretchContrast(grey);
  return levelledMrzBands(stretched, width, height).map((pixels) => {
    const turned = halfTurn(pixels);
    const glyphs = glyphsOfBand(pixels, turned, parse, isState);
    // The evened band only where the OCR will run (a band the glyph reader read needs none).
    const evened = glyphs.byGlyphs ? undefined : evenContrast(pixels);
    return {
      pgm: pgm(pixels),
      turnedPgm: pgm(turned),
      ...(evened ? { evenedPgm: pgm(evened) } : {}),
      ...glyphs,
    };
  });
}
