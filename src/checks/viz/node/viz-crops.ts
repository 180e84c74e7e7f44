import type { Box } from '@/checks/document/field-layouts';
import { findMrzBands, pgm, stretchContrast, type MrzBand } from '@/checks/mrz/mrz-band';

/**
 * The crops the printed-field OCR reads, cut in the image worker from the straightened document
 * (or the photo itself where the finder frames none): one per box asked, a little larger than the
 * box (the outline's corners are found within a few per cent), scaled so that the document would
 * be VIZ_DOCUMENT_WIDTH wide, in two forms: thresholded against each pixel's neighbourhood (print on
 * guilloches and tints) and plain grey (the OCR's own threshold), the second reading's.
 */

/** The document's width the crops are scaled to: 17 px labels of a sample card come out ~20 px. */
export const VIZ_DOCUMENT_WIDTH = 1200;
/** How much larger than its box a crop is cut, in shares of the document. */
const PAD = { x: 0.015, y: 0.02 };
/** The same about a page placed by its zone, whose outline is estimated from the zone alone. */
const ZONE_PAD = { x: 0.05, y: 0.03 };

export interface VizCropJob {
  key: string;
  box: Box;
  /** The document's width this crop is scaled to, when not VIZ_DOCUMENT_WIDTH. */
  documentWidth?: number;
  /**
   * Whether, in a photo the finder framed no document in, the box is of a TD3 page placed by its
   * zone (`pageByZone`); else of the photo taken as the document (a sample card's boxes, whose
   * page is not TD3-shaped).
   */
  byZone?: boolean;
}

export interface VizCrop {
  key: string;
  /** Thresholded (binary PGM). */
  binary: Uint8Array<ArrayBuffer>;
  /** Grey (binary PGM file of grey pixels). */
  grey: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
}

/**
 * Grey as the darkest channel's complement would miss: each pixel's brightest channel, so that a
 * tint (pink, orange, light blue backgrounds) is light and dark print stays dark.
 */
function brightestChannel(data: Uint8Array, width: number, height: number, channels: number) {
  const grey = new Uint8Array(width * height);
  for (let i = 0; i < grey.length; i++) {
    const o = i * channels;
    grey[i] = Math.max(data[o]!, data[o + 1]!, data[o + 2]!);
  }
  return grey;
}

/** Bilinear resampling of a grey image (crops are small: a few hundred thousand pixels at most). */
function resample(
  grey: Uint8Array,
  width: number,
  sx: number,
  sy: number,
  sw: number,
  sh: number,
  ow: number,
  oh: number,
) {
  const out = new Uint8Array(ow * oh);
  const height = grey.length / width;
  for (let y = 0; y < oh; y++) {
    const fy = Math.min(height - 1, Math.max(0, sy + ((y + 0.5) * sh) / oh - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    const dy = fy - y0;
    for (let x = 0; x < ow; x++) {
      const fx = Math.min(width - 1, Math.max(0, sx + ((x + 0.5) * sw) / ow - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const dx = fx - x0;
      const top = grey[y0 * width + x0]! * (1 - dx) + grey[y0 * width + x1]! * dx;
      const bottom = grey[y1 * width + x0]! * (1 - dx) + grey[y1 * width + x1]! * dx;
      out[y * ow + x] = Math.round(top * (1 - dy) + bottom * dy);
    }
  }
  return out;
}

/**
 * Dark where a pixel is darker than its neighbourhood's mean (a square `radius` a side) by more
 * than `contrast`: print on a tinted or patterned ground, where one threshold for the whole crop
 * loses either the print or the ground.
 */
export function localThreshold(
  grey: Uint8Array,
  width: number,
  height: number,
  radius: number,
  contrast = 30,
) {
  const stride = width + 1;
  const integral = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += grey[y * width + x]!;
      integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1]! + row;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - radius);
    const y1 = Math.min(height, y + radius + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - radius);
      const x1 = Math.min(width, x + radius + 1);
      const sum =
        integral[y1 * stride + x1]! -
        integral[y0 * stride + x1]! -
        integral[y1 * stride + x0]! +
        integral[y0 * stride + x0]!;
      out[y * width + x] = grey[y * width + x]! < sum / ((y1 - y0) * (x1 - x0)) - contrast ? 0 : 255;
    }
  }
  return out;
}

/** A point of the photo's pixels for a point of the document, in shares of its width and height. */
type DocumentMap = (u: number, v: number) => { x: number; y: number };

/** Bilinear sampling of a grey image along a map (the document, however it lies in the photo). */
function sample(grey: Uint8Array, width: number, map: DocumentMap, box: Box, ow: number, oh: number) {
  const out = new Uint8Array(ow * oh);
  const height = grey.length / width;
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      const p = map(box.x + ((x + 0.5) * box.w) / ow, box.y + ((y + 0.5) * box.h) / oh);
      const fx = Math.min(width - 1, Math.max(0, p.x - 0.5));
      const fy = Math.min(height - 1, Math.max(0, p.y - 0.5));
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const x1 = Math.min(width - 1, x0 + 1);
      const y1 = Math.min(height - 1, y0 + 1);
      const dx = fx - x0;
      const dy = fy - y0;
      const top = grey[y0 * width + x0]! * (1 - dx) + grey[y0 * width + x1]! * dx;
      const bottom = grey[y1 * width + x0]! * (1 - dx) + grey[y1 * width + x1]! * dx;
      out[y * ow + x] = Math.round(top * (1 - dy) + bottom * dy);
    }
  }
  return out;
}

/** The width the photo is searched for its zone at (as the MRZ reader's). */
const ZONE_SEARCH_WIDTH = 1000;
/**
 * ICAO 9303 Part 4's TD3 page (125 × 88 mm) around its zone: the zone's two lines (44 characters
 * at 2.54 mm: 112 mm) start 6 mm in from the page's left and end ~2 mm above its bottom.
 */
const TD3 = { aspect: 125 / 88, widthPerZone: 125 / 112, leftOfZone: 6 / 112, belowZone: 2 / 112 };
/** A band this many of its line heights wide or more is a zone's (a TD3 line is ~40). */
const ZONE_MIN_WIDTH_IN_LINES = 25;

/**
 * Where the data page lies in a photo the finder framed no document in, told by its zone (found
 * reliably where the outline is not: a page on a table, in an open booklet, turned a quarter): a
 * TD3 page around the lowest band of zone-like lines, in the photo upright or turned a quarter
 * either way (the one that leaves the band in the lower half: the page above it). Undefined when
 * no such band is found.
 */
export function pageByZone(grey: Uint8Array, width: number, height: number): DocumentMap | undefined {
  const scale = Math.min(1, ZONE_SEARCH_WIDTH / Math.max(width, height));
  const sw = Math.max(1, Math.round(width * scale));
  const sh = Math.max(1, Math.round(height * scale));
  const small = resample(grey, width, 0, 0, width, height, sw, sh);
  // Each turn: the upright image's size and where its pixel (x, y) is in the small photo.
  const turns = [
    { w: sw, h: sh, at: (x: number, y: number) => ({ x, y }) },
    { w: sh, h: sw, at: (x: number, y: number) => ({ x: sw - 1 - y, y: x }) },
    { w: sh, h: sw, at: (x: number, y: number) => ({ x: y, y: sh - 1 - x }) },
  ];
  for (const turn of turns) {
    const upright = new Uint8Array(turn.w * turn.h);
    for (let y = 0; y < turn.h; y++)
      for (let x = 0; x < turn.w; x++) {
        const p = turn.at(x, y);
        upright[y * turn.w + x] = small[p.y * sw + p.x]!;
      }
    const band = findMrzBands(stretchContrast(upright), turn.w, turn.h).find(
      (b: MrzBand) => b.width >= ZONE_MIN_WIDTH_IN_LINES * b.lineHeight && b.top > 0.4 * turn.h,
    );
    if (!band) continue;
    const pageWidth = band.width * TD3.widthPerZone;
    const left = band.left - band.width * TD3.leftOfZone;
    const bottom = band.top + band.height + band.width * TD3.belowZone;
    const top = bottom - pageWidth / TD3.aspect;
    const centre = turn.w / 2;
    return (u, v) => {
      // The band's frame is the upright image sheared by its slant: undo it, then the turn and the scale.
      const x = left + u * pageWidth;
      const y = top + v * (bottom - top) - band.slant * (x - centre);
      const p = turn.at(x, y);
      return { x: p.x / scale, y: p.y / scale };
    };
  }
  return undefined;
}

/**
 * The crops of the boxes asked, from RGBA (or RGB) pixels: of the upright straightened document,
 * or (`byZone`) of a photo the finder framed no document in, where a TD3 page's boxes (a job's
 * `byZone`) are placed by its zone (`pageByZone`) and, without one, as other boxes, in the photo
 * taken as the document.
 */
export function vizCrops(
  image: { data: Uint8Array; width: number; height: number; channels: number },
  boxes: readonly VizCropJob[],
  byZone = false,
): VizCrop[] {
  const grey = brightestChannel(image.data, image.width, image.height, image.channels);
  const zonePage =
    byZone && boxes.some((b) => b.byZone) ? pageByZone(grey, image.width, image.height) : undefined;
  const whole: DocumentMap = (u, v) => ({ x: u * image.width, y: v * image.height });
  return boxes.map(({ key, box, documentWidth = VIZ_DOCUMENT_WIDTH, byZone: placed }) => {
    const page = placed ? zonePage : undefined;
    const map = page ?? whole;
    const corner = map(0, 0);
    const across = map(1, 0);
    const pageWidth = Math.hypot(across.x - corner.x, across.y - corner.y);
    const scale = documentWidth / pageWidth;
    const pad = page ? ZONE_PAD : PAD;
    const x0 = Math.max(page ? -pad.x : 0, box.x - pad.x);
    const y0 = Math.max(page ? -pad.y : 0, box.y - pad.y);
    const x1 = Math.min(page ? 1 + pad.x : 1, box.x + box.w + pad.x);
    const y1 = Math.min(page ? 1 + pad.y : 1, box.y + box.h + pad.y);
    const pageHeight = page ? pageWidth / TD3.aspect : image.height;
    const width = Math.max(1, Math.round((x1 - x0) * pageWidth * scale));
    const height = Math.max(1, Math.round((y1 - y0) * pageHeight * scale));
    const pixels = sample(grey, image.width, map, { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, width, height);
    const binary = localThreshold(pixels, width, height, Math.round(documentWidth / 60));
    return {
      key,
      binary: pgm({ data: binary, width, height }),
      grey: pgm({ data: pixels, width, height }),
      width,
      height,
    };
  });
}

/** Share of dark pixels of a thresholded crop (binary PGM) in rows [top, bottom). */
export function inkShare(binary: Uint8Array, width: number, height: number, top: number, bottom: number) {
  const offset = binary.length - width * height;
  const from = Math.max(0, Math.round(top));
  const to = Math.min(height, Math.round(bottom));
  if (to <= from) return 0;
  let dark = 0;
  for (let i = offset + from * width; i < offset + to * width; i++) if (binary[i] === 0) dark++;
  return dark / ((to - from) * width);
}

/** Rows `y0`–`y1` of a crop's PGM file (`width` × `height`): a strip the reader reads again. */
export function pgmRows(file: Uint8Array, width: number, height: number, y0: number, y1: number) {
  const data = file.subarray(file.length - width * height);
  return pgm({ data: data.subarray(y0 * width, y1 * width), width, height: y1 - y0 });
}
