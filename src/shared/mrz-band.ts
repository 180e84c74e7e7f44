/**
 * Where the machine-readable zone sits in a photo, found from the pixels before any OCR, so the OCR
 * reads only those two or three lines (it costs ~70 ms per MRZ line, and several times that on a
 * whole page of other text). Used by the service (`src/service/checks/mrz.ts`) and the wizard
 * (`src/features/wizard/checks/check-mrz.ts`) on the same grey pixels, so both crop alike.
 *
 * An MRZ line is a long run of monospaced glyphs with filler (`<`) between words, so its strokes
 * cover its whole length without gaps; two or three such lines of the same height and start are
 * stacked at the foot of the document. The finder projects the strong horizontal edges of the
 * image onto rows, at a few slants so that a photo taken a little askew still gives sharp rows,
 * and keeps groups of lines that look like that.
 */

/**
 * A band of the grey image given to `findMrzBands`: a rectangle once the image is sheared by
 * `slant` (pixel (x, y) moved to (x, y + slant × (x − image width / 2))), so lines of a photo
 * taken a little askew lie level in it.
 */
export interface MrzBand {
  left: number;
  top: number;
  width: number;
  height: number;
  slant: number;
  /** Height of one MRZ line in the band (for scaling the crop). */
  lineHeight: number;
}

/** Grey pixels, one byte each, row by row. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A grey difference over 3 px that counts as a stroke edge (on contrast-stretched pixels). */
const EDGE_STEP = 56;
/** Slants tried (vertical px per horizontal px): about ±5 degrees either way. */
const SLANTS = [0, -0.03, 0.03, -0.06, 0.06, -0.09, 0.09];
/** A row belongs to a text line when it holds this share of the busiest row's edges. */
const ROW_SHARE = 0.2;
/** An MRZ line is at least this many line heights long (30 glyphs of a TD1 card are ~24). */
const MIN_LENGTH_IN_HEIGHTS = 14;
/** Share of its length an MRZ line's strokes cover (cells one line height wide). */
const MIN_COVER = 0.8;
/** At most this many bands are returned, the lowest first. */
const MAX_BANDS = 2;

/**
 * Bands whose lines are lower than this are enlarged to it (a document far in the frame); others
 * go to the OCR as they are, since resampling them only blurs the glyphs.
 */
const MRZ_MIN_LINE_PX = 18;

/**
 * The grey the band finder reads, from RGB(A) pixels: Rec. 709 luma in 8-bit fixed point
 * (54 + 183 + 19 = 256), close to what sharp's greyscale gives a decode of the same photo.
 */
export function mrzGrey(data: ArrayLike<number>, channels: number): Uint8Array {
  const grey = new Uint8Array(Math.floor(data.length / channels));
  for (let i = 0, p = 0; p < grey.length; i += channels, p++)
    grey[p] = (54 * data[i] + 183 * data[i + 1] + 19 * data[i + 2] + 128) >> 8;
  return grey;
}

/** Grey levels stretched so the 1st and 99th percentiles become black and white (as sharp's `normalise`). */
export function stretchContrast(grey: Uint8Array): Uint8Array {
  const histogram = new Uint32Array(256);
  for (const v of grey) histogram[v]++;
  const percentile = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += histogram[v]) >= share * grey.length) return v;
    return 255;
  };
  const low = percentile(0.01);
  const high = Math.max(low + 1, percentile(0.99));
  const table = new Uint8Array(256);
  for (let v = 0; v < 256; v++)
    table[v] = Math.min(255, Math.max(0, Math.round(((v - low) * 255) / (high - low))));
  const out = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) out[i] = table[grey[i]];
  return out;
}

interface Line {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** Bands of the grey image (one byte per pixel, row by row) that hold MRZ-like lines, lowest first. */
export function findMrzBands(grey: Uint8Array, width: number, height: number): MrzBand[] {
  // Stroke edges, as x and y of each (at most one per 3 px of a row).
  const capacity = height * Math.ceil(width / 3);
  const xs = new Uint16Array(capacity);
  const ys = new Uint16Array(capacity);
  let count = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 3; x < width; x += 1) {
      const d = grey[row + x] - grey[row + x - 3];
      if (d > EDGE_STEP || d < -EDGE_STEP) {
        xs[count] = x;
        ys[count++] = y;
        x += 2; // one edge per stroke side
      }
    }
  }
  if (count === 0) return [];
  // The slant whose row projection is the sharpest (text rows stand out most when level).
  const centre = width / 2;
  const margin = Math.ceil(Math.max(...SLANTS.map(Math.abs)) * centre) + 1;
  let best = { slant: 0, rows: new Uint32Array(0), score: -1 };
  for (const slant of SLANTS) {
    const rows = new Uint32Array(height + 2 * margin);
    for (let i = 0; i < count; i++) rows[Math.round(ys[i] + slant * (xs[i] - centre)) + margin]++;
    let score = 0;
    for (const r of rows) score += r * r;
    if (score > best.score) best = { slant, rows, score };
  }
  const { slant, rows } = best;
  const at = (i: number) => (i >= 0 && i < rows.length ? rows[i] : 0);
  const smooth = rows.map((_, i) => (at(i - 1) + 2 * at(i) + at(i + 1)) / 4);
  const threshold = Math.max(8, ROW_SHARE * Math.max(...smooth));
  // Runs of busy rows: the text lines (projected rows, offset by margin).
  const runs: [number, number][] = [];
  for (let i = 0; i < smooth.length;) {
    if (smooth[i] < threshold) {
      i++;
      continue;
    }
    const start = i;
    while (i < smooth.length && smooth[i] >= threshold) i++;
    if (i - start >= 5) runs.push([start, i]);
  }
  // Each run's horizontal reach and how evenly its strokes cover it.
  const lines: Line[] = [];
  for (const [start, end] of runs) {
    const h = end - start;
    const cells = new Uint8Array(Math.ceil(width / h) + 1);
    for (let i = 0; i < count; i++) {
      const r = Math.round(ys[i] + slant * (xs[i] - centre)) + margin;
      if (r < start || r >= end) continue;
      cells[Math.floor(xs[i] / h)] = 1;
    }
    // The longest stretch of covered cells, bridging single empty cells (a wide glyph gap).
    let bestFrom = 0;
    let bestTo = -1;
    for (let c = 0; c < cells.length;) {
      if (!cells[c]) {
        c++;
        continue;
      }
      let to = c;
      while (to + 1 < cells.length && (cells[to + 1] || (to + 2 < cells.length && cells[to + 2]))) to++;
      if (to - c > bestTo - bestFrom) [bestFrom, bestTo] = [c, to];
      c = to + 1;
    }
    const left = bestFrom * h;
    const right = Math.min(width, (bestTo + 1) * h);
    let covered = 0;
    for (let c = bestFrom; c <= bestTo; c++) covered += cells[c];
    const length = bestTo - bestFrom + 1;
    if (length >= MIN_LENGTH_IN_HEIGHTS && covered / length >= MIN_COVER)
      lines.push({ top: start - margin, bottom: end - margin, left, right });
  }
  // Groups of 2–3 stacked lines of like height, start and length.
  const groups: Line[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const group = [lines[i]];
    for (let j = i + 1; j < lines.length && group.length < 3; j++) {
      const a = group[group.length - 1];
      const b = lines[j];
      const ha = a.bottom - a.top;
      const hb = b.bottom - b.top;
      const alike =
        Math.max(ha, hb) <= 1.6 * Math.min(ha, hb) &&
        b.top - a.bottom <= 2 * Math.max(ha, hb) &&
        Math.abs(b.left - a.left) <= Math.max(ha, hb) &&
        // Lines of one zone hold as many glyphs of one pitch: as long, to a cell or two.
        Math.abs(b.right - b.left - (a.right - a.left)) <= 2 * Math.max(ha, hb);
      if (!alike) break;
      group.push(b);
    }
    if (group.length >= 2) {
      groups.push(group);
      i += group.length - 1;
    }
  }
  return groups
    .sort((a, b) => b[b.length - 1].bottom - a[a.length - 1].bottom)
    .slice(0, MAX_BANDS)
    .map((group) => {
      const lineHeight = Math.max(...group.map((l) => l.bottom - l.top));
      const left = Math.max(0, Math.min(...group.map((l) => l.left)) - lineHeight);
      const right = Math.min(width, Math.max(...group.map((l) => l.right)) + lineHeight);
      const top = group[0].top - Math.ceil(lineHeight * 0.6);
      const bottom = group[group.length - 1].bottom + Math.ceil(lineHeight * 0.6);
      return { left, top, width: right - left, height: bottom - top, slant, lineHeight };
    });
}

/**
 * The band's pixels, levelled (the shear undone) and enlarged (bilinear) when its lines are smaller
 * than the OCR reads well. Pixels the band takes from outside the image are white.
 */
export function mrzBandPixels(grey: Uint8Array, width: number, band: MrzBand): GreyImage {
  const height = grey.length / width;
  const scale = Math.min(3, Math.max(1, MRZ_MIN_LINE_PX / band.lineHeight));
  const w = Math.round(band.width * scale);
  const h = Math.round(band.height * scale);
  const out = new Uint8Array(w * h);
  const at = (x: number, y: number) => (y >= 0 && y < height ? grey[y * width + x] : 255);
  for (let x = 0; x < w; x++) {
    const sx = Math.min(width - 1, band.left + x / scale);
    const x0 = Math.floor(sx);
    const x1 = Math.min(width - 1, x0 + 1);
    const fx = sx - x0;
    const shift = band.slant * (sx - width / 2);
    for (let y = 0; y < h; y++) {
      const sy = band.top + y / scale - shift;
      const y0 = Math.floor(sy);
      const fy = sy - y0;
      const upper = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
      const lower = at(x0, y0 + 1) * (1 - fx) + at(x1, y0 + 1) * fx;
      out[y * w + x] = Math.round(upper * (1 - fy) + lower * fy);
    }
  }
  return { data: out, width: w, height: h };
}

/** A band's pixels as a binary PGM file: what the OCR is given, with no PNG to encode or decode. */
export function pgm(image: GreyImage): Uint8Array<ArrayBuffer> {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header);
  out.set(image.data, header.length);
  return out;
}
