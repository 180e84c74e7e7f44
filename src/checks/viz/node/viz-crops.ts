import type { Box } from '@/checks/document/field-layouts';
import { pgm } from '@/checks/mrz/mrz-band';

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

export interface VizCropJob {
  key: string;
  box: Box;
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

/** The crops of the boxes asked, from RGBA (or RGB) pixels of the upright document. */
export function vizCrops(
  image: { data: Uint8Array; width: number; height: number; channels: number },
  boxes: readonly VizCropJob[],
): VizCrop[] {
  const grey = brightestChannel(image.data, image.width, image.height, image.channels);
  const scale = VIZ_DOCUMENT_WIDTH / image.width;
  return boxes.map(({ key, box }) => {
    const x0 = Math.max(0, box.x - PAD.x);
    const y0 = Math.max(0, box.y - PAD.y);
    const x1 = Math.min(1, box.x + box.w + PAD.x);
    const y1 = Math.min(1, box.y + box.h + PAD.y);
    const [sx, sy, sw, sh] = [
      x0 * image.width,
      y0 * image.height,
      (x1 - x0) * image.width,
      (y1 - y0) * image.height,
    ];
    const width = Math.max(1, Math.round(sw * scale));
    const height = Math.max(1, Math.round(sh * scale));
    const pixels = resample(grey, image.width, sx, sy, sw, sh, width, height);
    const binary = localThreshold(pixels, width, height, Math.round(VIZ_DOCUMENT_WIDTH / 60));
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
