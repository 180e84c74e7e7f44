import sharp from 'sharp';
import { MRZ_OCR_MAX_HEIGHT, MRZ_OCR_WIDTH } from '@/shared/document-reading';
import { findMrzBands, mrzBandImage, mrzGrey, stretchContrast } from '@/shared/mrz-band';
import { MAX_IMAGE_PIXELS } from './image';

/**
 * The MRZ bands of a document photo as images for the OCR (binary PGM, lowest band first; none
 * when no MRZ-like lines are found), from grey pixels MRZ_OCR_WIDTH wide. No OCR here: this runs
 * in the image workers, beside the metrics, on the same decode where its width fits.
 */

/** A decode this wide (a landscape photo at the metrics' 1024) is read as it is; MRZ_OCR_WIDTH is 1000. */
const SHARED_DECODE_MAX_WIDTH = 1024;

/** RGBA or RGB pixels of the one decode, when their width is what the OCR reads at. */
export interface DecodedPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Bands from the one decode when its width suits the OCR, else from a grey decode of the file. */
export async function mrzBandImages(path: string, decoded?: DecodedPixels): Promise<Uint8Array[]> {
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
  return findMrzBands(stretched, width, height).map((band) => mrzBandImage(stretched, width, band));
}
