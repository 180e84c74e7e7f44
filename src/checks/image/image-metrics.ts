/**
 * Pixel metrics shared by the embedded service (sharp raw pixels) and the browser wizard (canvas
 * ImageData), so both judge a photo with the same figures. Pure TS, no imports: it runs anywhere.
 *
 * Normalisation, done inside each metric so every caller gets the same numbers:
 * - colour → gray is BT.601 luma in integers: (77·R + 150·G + 29·B + 128) >> 8;
 * - before measuring, an image whose long side exceeds METRIC_LONG_SIDE (512) is shrunk with a box
 *   filter (each output pixel is the rounded mean of the source pixels whose coordinates map to it,
 *   see boxDownscale) so the long side is exactly 512; smaller images are measured as they are;
 * - the perceptual hash then box-filters that metric-size gray image to 32×32 cells (see perceptualHash).
 */

/** Raw pixels, row-major, `channels` bytes per pixel (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA). */
export interface PixelImage {
  data: ArrayLike<number>;
  width: number;
  height: number;
  channels: number;
}

/** The long side every metric works at (larger images are box-filtered down to it). */
export const METRIC_LONG_SIDE = 512;
/**
 * The long side an image is decoded at for its metrics, by the service (sharp, shrink-on-load) and
 * the browser (createImageBitmap's resize) alike; the metrics then box-filter that to 512.
 */
export const METRICS_DECODE_LONG_SIDE = 1024;
/** A pixel counts as coloured when max(|R−G|, |G−B|, |R−B|) is at least this (0–255). */
export const COLOUR_CHROMA_MIN = 24;
/** An image is grayscale when fewer than this share of its pixels are coloured. */
export const GRAYSCALE_COLOUR_SHARE_MAX = 0.02;
/** Variance of the 4-neighbour Laplacian below which a document photo is too blurry. */
export const BLUR_VARIANCE_MIN = 100;
/** Bits of the perceptual hash (the 8×8 lowest DCT frequencies). */
export const PHASH_BITS = 64;
/** Two images whose hashes differ in at most this many bits are "the same picture". */
export const SIMILAR_HASH_MAX_DISTANCE = 10;
/**
 * Two sides this close are one picture taken twice (the front re-photographed as the back measures
 * 0 bits), so a missing barcode or zone on the second one is explained by it being the front;
 * between this and SIMILAR_HASH_MAX_DISTANCE the side's own unreadable barcode or zone is named first.
 */
export const SAME_PICTURE_MAX_DISTANCE = 4;

const luma = (r: number, g: number, b: number) => (77 * r + 150 * g + 29 * b + 128) >> 8;

/** Gray bytes of raw pixels; alpha is ignored, 1- and 2-channel input keeps its first channel. */
export function toGray(data: ArrayLike<number>, channels: number): Uint8Array {
  const pixels = Math.floor(data.length / channels);
  const gray = new Uint8Array(pixels);
  if (channels < 3) {
    for (let i = 0; i < pixels; i++) gray[i] = data[i * channels];
    return gray;
  }
  for (let i = 0, o = 0; i < pixels; i++, o += channels) gray[i] = luma(data[o], data[o + 1], data[o + 2]);
  return gray;
}

/**
 * Box filter to exactly outW×outH: output column x averages source columns
 * floor(x·W/outW) … max(that, floor((x+1)·W/outW) − 1), likewise for rows; means are rounded.
 * Upscaling (outW > W) repeats source pixels.
 */
export function boxResize(image: PixelImage, outW: number, outH: number): PixelImage {
  const { data, width: w, height: h, channels: c } = image;
  const out = new Uint8Array(outW * outH * c);
  const x0 = new Int32Array(outW);
  const x1 = new Int32Array(outW);
  for (let x = 0; x < outW; x++) {
    x0[x] = Math.floor((x * w) / outW);
    x1[x] = Math.max(x0[x] + 1, Math.floor(((x + 1) * w) / outW));
  }
  // Each output row first sums its source rows column by column (one linear pass over the bytes,
  // the costly part), then each output pixel sums its columns of that, with the same integer sums
  // as pixel by pixel.
  // RGBA is summed a pixel (32-bit word) at a time, two channels per 16-bit lane, while a lane
  // cannot overflow (a box of up to 257 pixels of 255): rows first, then each output pixel's
  // columns, both on the lanes; half the work of byte by byte on a decode's 12 million bytes.
  const blockW = Math.ceil(w / outW);
  const blockH = Math.ceil(h / outH);
  const words =
    c === 4 && data instanceof Uint8Array && data.byteOffset % 4 === 0 && blockW * blockH <= 257
      ? new Uint32Array(data.buffer, data.byteOffset, w * h)
      : null;
  if (words) {
    const lanesLo = new Uint32Array(w);
    const lanesHi = new Uint32Array(w);
    for (let y = 0; y < outH; y++) {
      const y0 = Math.floor((y * h) / outH);
      const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * h) / outH));
      // The first row sets the lanes (no clearing pass), the others add to them.
      for (let i = 0, row = y0 * w; i < w; i++) {
        const v = words[row + i];
        lanesLo[i] = v & 0x00ff00ff;
        lanesHi[i] = (v >>> 8) & 0x00ff00ff;
      }
      for (let sy = y0 + 1; sy < y1; sy++) {
        const row = sy * w;
        for (let i = 0; i < w; i++) {
          const v = words[row + i];
          lanesLo[i] += v & 0x00ff00ff;
          lanesHi[i] += (v >>> 8) & 0x00ff00ff;
        }
      }
      const rows = y1 - y0;
      for (let x = 0, o = y * outW * 4; x < outW; x++, o += 4) {
        let lo = 0;
        let hi = 0;
        for (let i = x0[x]; i < x1[x]; i++) {
          lo += lanesLo[i];
          hi += lanesHi[i];
        }
        // Bytes 0 and 2 of a little-endian word are channels 0 and 2; bytes 1 and 3, channels 1 and 3.
        const count = rows * (x1[x] - x0[x]);
        out[o] = Math.round((lo & 0xffff) / count);
        out[o + 1] = Math.round((hi & 0xffff) / count);
        out[o + 2] = Math.round((lo >>> 16) / count);
        out[o + 3] = Math.round((hi >>> 16) / count);
      }
    }
    return { data: out, width: outW, height: outH, channels: c };
  }
  const rowBytes = w * c;
  const columns = new Uint32Array(rowBytes);
  for (let y = 0; y < outH; y++) {
    const y0 = Math.floor((y * h) / outH);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * h) / outH));
    columns.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * rowBytes;
      for (let i = 0; i < rowBytes; i++) columns[i] += data[row + i];
    }
    const o = y * outW * c;
    const rows = y1 - y0;
    for (let x = 0; x < outW; x++) {
      const from = x0[x] * c;
      const to = x1[x] * c;
      const count = rows * (x1[x] - x0[x]);
      for (let k = 0; k < c; k++) {
        let sum = 0;
        for (let i = from + k; i < to; i += c) sum += columns[i];
        out[o + x * c + k] = Math.round(sum / count);
      }
    }
  }
  return { data: out, width: outW, height: outH, channels: c };
}

/** Box-filters an image so that its long side is at most `longSide` (no copy when it already is). */
export function boxShrinkTo(image: PixelImage, longSide: number): PixelImage {
  const shrink = longSide / Math.max(image.width, image.height);
  if (shrink >= 1) return image;
  return boxResize(
    image,
    Math.max(1, Math.round(image.width * shrink)),
    Math.max(1, Math.round(image.height * shrink)),
  );
}

/** The size metrics work at: unchanged up to METRIC_LONG_SIDE, else long side 512, short side rounded. */
export function metricSize(width: number, height: number): { width: number; height: number } {
  const long = Math.max(width, height);
  if (long <= METRIC_LONG_SIDE) return { width, height };
  const scale = METRIC_LONG_SIDE / long;
  return {
    width: width >= height ? METRIC_LONG_SIDE : Math.max(1, Math.round(width * scale)),
    height: height > width ? METRIC_LONG_SIDE : Math.max(1, Math.round(height * scale)),
  };
}

/** Box-filters an image down to metricSize (no copy when it is already small enough). */
export function normalise(image: PixelImage): PixelImage {
  const size = metricSize(image.width, image.height);
  if (size.width === image.width && size.height === image.height) return image;
  return boxResize(image, size.width, size.height);
}

/** Share (0–1) of coloured pixels, measured at metric size. 0 for 1- and 2-channel images. */
export function grayscaleScore(image: PixelImage): number {
  if (image.channels < 3) return 0;
  const small = normalise(image);
  const { data, channels: c } = small;
  const pixels = small.width * small.height;
  let coloured = 0;
  for (let i = 0, o = 0; i < pixels; i++, o += c) {
    const r = data[o];
    const g = data[o + 1];
    const b = data[o + 2];
    const chroma = Math.max(r, g, b) - Math.min(r, g, b);
    if (chroma >= COLOUR_CHROMA_MIN) coloured++;
  }
  return pixels === 0 ? 0 : coloured / pixels;
}

export const isGrayscale = (image: PixelImage) => grayscaleScore(image) < GRAYSCALE_COLOUR_SHARE_MAX;

/** Variance of the 4-neighbour Laplacian over the interior of the gray image at metric size. */
export function laplacianVariance(gray: ArrayLike<number>, width: number, height: number): number {
  const small = normalise({ data: gray, width, height, channels: 1 });
  const { data: g, width: w, height: h } = small;
  if (w < 3 || h < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const v = g[i - 1] + g[i + 1] + g[i - w] + g[i + w] - 4 * g[i];
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

export const isBlurry = (blurScore: number) => blurScore < BLUR_VARIANCE_MIN;

/** A gray pixel this bright (0–255) is blown out: a reflection, not the document's own white. */
export const GLARE_LEVEL = 250;
/** A document region with more than this share of blown-out pixels has glare over its print. */
export const GLARE_SHARE_MAX = 0.02;

/**
 * Share of blown-out pixels (GLARE_LEVEL) in a gray image, or in a box of it (a found document's
 * bounds): a paper white or a pale card background stays below the level, a lamp's reflection does
 * not. Where the box's median is itself blown out, the blown pixels are the document's own paper
 * (a white page taken bright), which no reflection can be told from: the share is then 0. Measured
 * on the framed real specimens of bench:accuracy-documents, the share alone named glare on 7 of 10,
 * most of them white pages at 255.
 */
export function glareShare(
  gray: ArrayLike<number>,
  width: number,
  height: number,
  box = { x: 0, y: 0, width, height },
): number {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(width, Math.ceil(box.x + box.width));
  const y1 = Math.min(height, Math.ceil(box.y + box.height));
  let blown = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) if (gray[y * width + x] >= GLARE_LEVEL) blown++;
  }
  const pixels = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return pixels === 0 || blown * 2 > pixels ? 0 : blown / pixels;
}

/** The glare share of a found document: its corners' bounding box (the camera guide's look). */
export function documentGlareShare(
  gray: ArrayLike<number>,
  width: number,
  height: number,
  quad: readonly { x: number; y: number }[],
): number {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return glareShare(gray, width, height, { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y });
}

export const hasGlare = (share: number) => share > GLARE_SHARE_MAX;

const HASH_CELLS = 32;
const HASH_LOW = 8;

/** cos((2x+1)·u·π / 64) for the 32-point DCT-II, built once. */
const dctTable = (() => {
  const table = new Float64Array(HASH_LOW * HASH_CELLS);
  for (let u = 0; u < HASH_LOW; u++) {
    for (let x = 0; x < HASH_CELLS; x++)
      table[u * HASH_CELLS + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * HASH_CELLS));
  }
  return table;
})();

/**
 * DCT perceptual hash: the gray image at metric size, box-filtered to 32×32, 2-D DCT-II, the 8×8
 * lowest frequencies (row-major, DC included); each bit = coefficient above the median of those 64,
 * most significant first; 16 lower-case hex digits. Flat areas do not bias it the way a difference
 * hash's ties do, so two different documents on the same background stay apart.
 */
export function perceptualHash(gray: ArrayLike<number>, width: number, height: number): string {
  const cells = boxResize(normalise({ data: gray, width, height, channels: 1 }), HASH_CELLS, HASH_CELLS).data;
  // Rows first: rowDct[y][u], then columns: coefficient[v][u].
  const rowDct = new Float64Array(HASH_CELLS * HASH_LOW);
  for (let y = 0; y < HASH_CELLS; y++) {
    for (let u = 0; u < HASH_LOW; u++) {
      let sum = 0;
      for (let x = 0; x < HASH_CELLS; x++) sum += cells[y * HASH_CELLS + x] * dctTable[u * HASH_CELLS + x];
      rowDct[y * HASH_LOW + u] = sum;
    }
  }
  const coefficients: number[] = [];
  for (let v = 0; v < HASH_LOW; v++) {
    for (let u = 0; u < HASH_LOW; u++) {
      let sum = 0;
      for (let y = 0; y < HASH_CELLS; y++) sum += rowDct[y * HASH_LOW + u] * dctTable[v * HASH_CELLS + y];
      coefficients.push(sum);
    }
  }
  const sorted = [...coefficients].sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  let hex = '';
  for (let i = 0; i < coefficients.length; i += 4) {
    let nibble = 0;
    for (let k = 0; k < 4; k++) nibble = (nibble << 1) | (coefficients[i + k] > median ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

/** Bits that differ between two hex hashes; hashes of different lengths are maximally apart. */
export function hammingDistance(a: string, b: string): number {
  if (a.length !== b.length) return Math.max(a.length, b.length) * 4;
  let distance = 0;
  for (let i = 0; i < a.length; i++) {
    let x = parseInt(a[i], 16) ^ parseInt(b[i], 16);
    if (Number.isNaN(x)) return a.length * 4;
    while (x) {
      distance += x & 1;
      x >>= 1;
    }
  }
  return distance;
}

export const isSimilar = (a: string, b: string) => hammingDistance(a, b) <= SIMILAR_HASH_MAX_DISTANCE;

export interface ImageMetrics {
  width: number;
  height: number;
  /** Share of coloured pixels (grayscaleScore). */
  colourShare: number;
  grayscale: boolean;
  /** Laplacian variance (laplacianVariance). */
  blurScore: number;
  blurry: boolean;
  phash: string;
}

/** Every metric of one image, normalising once. */
export function imageMetrics(image: PixelImage): ImageMetrics {
  const small = normalise(image);
  const gray = toGray(small.data, small.channels);
  const colourShare = grayscaleScore(small);
  const blurScore = laplacianVariance(gray, small.width, small.height);
  return {
    width: image.width,
    height: image.height,
    colourShare,
    grayscale: colourShare < GRAYSCALE_COLOUR_SHARE_MAX,
    blurScore,
    blurry: isBlurry(blurScore),
    phash: perceptualHash(gray, small.width, small.height),
  };
}
