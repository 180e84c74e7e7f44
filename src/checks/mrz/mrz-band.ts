/**
 * Where the machine-readable zone sits in a photo, found from the pixels before any OCR, so the OCR
 * reads only those two or three lines (it costs ~70 ms per MRZ line, and several times that on a
 * whole page of other text). Used by the service (`src/checks/mrz/node/mrz.ts`) and the wizard
 * (`src/checks/mrz/browser/check-mrz.ts`) on the same grey pixels, so both crop alike.
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
 * taken askew lie level in it; `mrzBandPixels` turns it level by the lines' angle.
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
  /** Of a band's pixels: the height of one of its lines. */
  lineHeight?: number;
}

/** A grey difference over 3 px that counts as a stroke edge (on contrast-stretched pixels). */
const EDGE_STEP = 56;
/**
 * Slants tried (vertical px per horizontal px): 0 to ±0.72 (±36°) in steps of 0.03, then refined
 * to 0.005 about the best, so that a photo held askew still projects sharp rows, and the band is
 * turned level by the text's own angle (`mrzBandPixels`). A hand gives ±10°, but on top of a page
 * already photographed askew in its frame (a passport booklet lying turned on a table, ~20°): the
 * finder found no band past ±25°.
 */
const SLANT_STEP = 0.03;
const SLANTS = [
  0,
  ...Array.from({ length: 24 }, (_, i) => [-(i + 1) * SLANT_STEP, (i + 1) * SLANT_STEP]).flat(),
];
const FINE_SLANT_STEP = 0.005;
/** Peaks of the slants' sharpness tried in turn, the sharpest first, until one shows a band. */
const SLANT_PEAKS = 3;
/**
 * The widest gap (in line heights) bridged within an MRZ line: fixed-pitch glyphs, filler
 * included, leave about a third of one; the printed border of a page or card beside the zone
 * (a passport scan's frame, a card's edge) mostly stands further off. Bridged to one line only (the
 * finder bridged whole empty cells a line height wide before) it made the zone's lines unequal, so
 * no band was found on clean scans whose zone runs close to the frame; lines of one zone are
 * still allowed a little more than a line height of difference at either end for such a border.
 */
const MAX_GAP_IN_HEIGHTS = 0.6;
/** How far (in line heights) the ends of two lines of one zone may differ. */
const END_TOLERANCE_IN_HEIGHTS = 1.6;
/** How far (in line heights) one end of two lines of one zone may differ when the other agrees: ~5 glyphs of filler. */
const FILLER_END_IN_HEIGHTS = 4.5;
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

/**
 * Whether two lines may be of one zone by their ends: lines of one zone hold as many glyphs of one
 * pitch, so they start and end alike; but a line may begin or end with filler (`P<`, a name line's
 * trailing `<<<<`), whose thin strokes a small or blurred photo loses, so that line looks a few
 * glyphs shorter at that end. One end must agree (END_TOLERANCE_IN_HEIGHTS), the other within
 * FILLER_END_IN_HEIGHTS.
 */
function endsAlike(a: Line, b: Line, lineHeight: number): boolean {
  const left = Math.abs(b.left - a.left) / lineHeight;
  const right = Math.abs(b.right - a.right) / lineHeight;
  return (
    Math.max(left, right) <= END_TOLERANCE_IN_HEIGHTS ||
    (Math.min(left, right) <= END_TOLERANCE_IN_HEIGHTS && Math.max(left, right) <= FILLER_END_IN_HEIGHTS)
  );
}

/**
 * Lines of one zone whose other end a photo lost: a streak of light or glare across part of a line
 * takes its strokes' edges there, so the line is found from the far side of the glare on only
 * (the data line of PassportEye's 100_pass-lux turned 4°: its left half under a reflection). One
 * end must agree and the shorter line hold a third of the other's length. Tried only where no
 * zone's lines agree at both ends, so a page's text beside a zone is not drawn into it.
 */
function oneEndAlike(a: Line, b: Line, lineHeight: number): boolean {
  const ends = Math.min(Math.abs(b.left - a.left), Math.abs(b.right - a.right)) / lineHeight;
  const [shorter, longer] = [a.right - a.left, b.right - b.left].sort((x, y) => x - y);
  return ends <= END_TOLERANCE_IN_HEIGHTS && shorter >= longer / 3;
}

/** Runs of 2–3 stacked lines, top to bottom, of like height and close together, whose ends `ends` accepts. */
function stackedLines(lines: Line[], ends: (a: Line, b: Line, lineHeight: number) => boolean): Line[][] {
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
        ends(a, b, Math.max(ha, hb));
      if (!alike) break;
      group.push(b);
    }
    if (group.length >= 2) {
      groups.push(group);
      i += group.length - 1;
    }
  }
  return groups;
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
  const maxSlant = SLANTS.reduce((a, b) => Math.max(a, Math.abs(b)), 0) + SLANT_STEP;
  const margin = Math.ceil(maxSlant * centre) + 1;
  // The coarse search looks at every third edge (as sharp a projection, a third of the time).
  const project = (slant: number, stride = 1) => {
    const rows = new Uint32Array(height + 2 * margin);
    for (let i = 0; i < count; i += stride) rows[Math.round(ys[i] + slant * (xs[i] - centre)) + margin]++;
    let score = 0;
    for (const r of rows) score += r * r;
    return { slant, rows, score };
  };
  // Every slant's sharpness, then its peaks, sharpest first: the zone's lines are most often the
  // photo's sharpest rows, but on a booklet photographed in perspective the page's other text
  // (the visual zone, a facing page) lies at another slant and may be sharper; the zone is then
  // looked for at the next peaks (PassportEye's 100_pass-lux turned 4° or -2° had no band).
  const coarse = [...SLANTS].sort((a, b) => a - b).map((slant) => project(slant, 3));
  const peaks = coarse
    .filter((p, i) => p.score >= (coarse[i - 1]?.score ?? -1) && p.score >= (coarse[i + 1]?.score ?? -1))
    .sort((a, b) => b.score - a.score)
    .slice(0, SLANT_PEAKS);
  for (const peak of peaks) {
    let best = project(peak.slant);
    for (let k = -3; k <= 3; k++) {
      if (k === 0) continue;
      const tried = project(peak.slant + k * FINE_SLANT_STEP);
      if (tried.score > best.score) best = tried;
    }
    const bands = bandsAt(best);
    if (bands.length > 0) return bands;
  }
  return [];

  /** The bands whose lines are level once the image is sheared by `slant` (its rows projected). */
  function bandsAt({ slant, rows }: { slant: number; rows: Uint32Array }): MrzBand[] {
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
    // Each run's horizontal reach (the longest stretch of columns with stroke edges whose gaps stay
    // under MAX_GAP_IN_HEIGHTS) and how evenly its strokes cover it (cells one line height wide).
    const lines: Line[] = [];
    const marked = new Uint8Array(width);
    for (const [start, end] of runs) {
      const h = end - start;
      marked.fill(0);
      for (let i = 0; i < count; i++) {
        const r = Math.round(ys[i] + slant * (xs[i] - centre)) + margin;
        if (r >= start && r < end) marked[xs[i]] = 1;
      }
      const maxGap = Math.max(3, Math.round(MAX_GAP_IN_HEIGHTS * h));
      let left = 0;
      let right = -1;
      for (let x = 0; x < width;) {
        if (!marked[x]) {
          x++;
          continue;
        }
        const from = x;
        let last = x;
        while (x < width && x - last <= maxGap) {
          if (marked[x]) last = x;
          x++;
        }
        if (last - from > right - left) [left, right] = [from, last];
        x = last + 1;
      }
      const length = Math.ceil((right - left + 1) / h);
      let covered = 0;
      for (let c = 0; c < length; c++) {
        let any = 0;
        for (let x = left + c * h, to = Math.min(right + 1, x + h); x < to && !any; x++) any = marked[x];
        covered += any;
      }
      if (length >= MIN_LENGTH_IN_HEIGHTS && covered / length >= MIN_COVER)
        lines.push({ top: start - margin, bottom: end - margin, left, right: right + 1 });
    }
    // Groups of 2–3 stacked lines of like height, start and length; when there are none, lines
    // that agree at one end only (see oneEndAlike).
    let groups = stackedLines(lines, endsAlike);
    if (groups.length === 0) groups = stackedLines(lines, oneEndAlike);
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
}

/**
 * The band's pixels, turned level and enlarged (bilinear) when its lines are smaller than the OCR
 * reads well. The band is found in the sheared image, but its pixels are turned by the text's
 * angle (atan of the slant) about the band's centre: undoing a turn by a shear would leave every
 * glyph leaning by that angle (10° for a photo held that askew), which the glyph reader and the
 * OCR both read worse. Pixels the band takes from outside the image are white.
 */
export function mrzBandPixels(grey: Uint8Array, width: number, band: MrzBand): GreyImage {
  const height = grey.length / width;
  const scale = Math.min(3, Math.max(1, MRZ_MIN_LINE_PX / band.lineHeight));
  const stretch = Math.hypot(1, band.slant);
  const w = Math.round(band.width * stretch * scale);
  const h = Math.round(band.height * scale);
  const out = new Uint8Array(w * h);
  const at = (x: number, y: number) =>
    x >= 0 && x < width && y >= 0 && y < height ? grey[y * width + x] : 255;
  // Along the lines (1, −slant) and across them (slant, 1), as unit vectors, from the centre.
  const [ax, ay] = [1 / stretch, -band.slant / stretch];
  const [nx, ny] = [-ay, ax];
  const cx = band.left + band.width / 2;
  const cy = band.top + band.height / 2 - band.slant * (cx - width / 2);
  for (let y = 0; y < h; y++) {
    const v = (y - h / 2) / scale;
    for (let x = 0; x < w; x++) {
      const u = (x - w / 2) / scale;
      const sx = cx + u * ax + v * nx;
      const sy = cy + u * ay + v * ny;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const upper = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const lower = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * w + x] = Math.round(upper * (1 - fy) + lower * fy);
    }
  }
  return { ...unleaned({ data: out, width: w, height: h }), lineHeight: band.lineHeight * scale };
}

/**
 * The minimum (or, with `max`, the maximum) of `count` values of `source` from `start`, `stride`
 * apart, over a window `reach` either side of each, into `target` at the same places: van Herk and
 * Gil-Werman's blocks of the window's width, so three comparisons a value whatever the window.
 * `forward` and `backward` are scratch space of `count` values at least.
 */
function runningExtreme(
  source: Uint8Array,
  start: number,
  stride: number,
  count: number,
  reach: number,
  target: Uint8Array,
  max: boolean,
  forward: Uint8Array,
  backward: Uint8Array,
) {
  const size = 2 * reach + 1;
  const better = (a: number, b: number) => (max ? a > b : a < b);
  for (let i = 0; i < count; i++) {
    const v = source[start + i * stride];
    forward[i] = i % size === 0 || better(v, forward[i - 1]) ? v : forward[i - 1];
  }
  for (let i = count - 1; i >= 0; i--) {
    const v = source[start + i * stride];
    backward[i] = i === count - 1 || (i + 1) % size === 0 || better(v, backward[i + 1]) ? v : backward[i + 1];
  }
  for (let i = 0; i < count; i++) {
    const from = Math.max(0, i - reach);
    const to = Math.min(count - 1, i + reach);
    // A window cut short by an end lies in one block: its prefix or suffix there is the window.
    const oneBlock = Math.floor(from / size) === Math.floor(to / size);
    const a = backward[from];
    const b = forward[to];
    target[start + i * stride] = !oneBlock ? (better(a, b) ? a : b) : from % size === 0 ? b : a;
  }
}

/** Below this span of grey between a window's paper and print, the window holds paper only. */
const MIN_LOCAL_SPAN = 40;
/**
 * A band is evened out only where some of its print is paler than the rest: the tenth percentile
 * of the windows' print-to-paper spans under this share of the ninetieth: every band of the
 * tests' glare (half a data line under it), and 5 of the dev set's 86 bands (as is and turned 6°:
 * photos with a paler stretch of print), are evened.
 */
const UNEVEN_SPAN_RATIO = 0.5;

/**
 * The band with its contrast evened out: each pixel stretched between the darkest and lightest
 * grey within a line height along the line and a little over half one across it (so one line's
 * print does not set the next one's). A streak of light or glare across part of the zone leaves
 * its print there pale grey on white, which one threshold for the whole band (the glyph reader's,
 * the OCR's) reads as paper. The readers give it to the OCR when the band as it is does not read
 * valid (a glare-free band reads as well or better as it is); undefined when the print is as dark
 * all over (`UNEVEN_SPAN_RATIO`), so that a zone that does not read for another reason (a wrong
 * check digit, blur) costs no second OCR pass.
 */
export function evenContrast(image: GreyImage): GreyImage | undefined {
  const { data, width, height } = image;
  // A band holds two or three lines and their margins: about four line heights at least.
  const lineHeight = image.lineHeight ?? height / 4;
  const along = Math.max(2, Math.round(lineHeight));
  const across = Math.max(1, Math.round(lineHeight * 0.6));
  // Separable running minimum and maximum: along the rows, then down the columns.
  const rowLow = new Uint8Array(data.length);
  const rowHigh = new Uint8Array(data.length);
  const forward = new Uint8Array(Math.max(width, height));
  const backward = new Uint8Array(forward.length);
  for (let y = 0; y < height; y++) {
    runningExtreme(data, y * width, 1, width, along, rowLow, false, forward, backward);
    runningExtreme(data, y * width, 1, width, along, rowHigh, true, forward, backward);
  }
  const low = new Uint8Array(data.length);
  const high = new Uint8Array(data.length);
  for (let x = 0; x < width; x++) {
    runningExtreme(rowLow, x, width, height, across, low, false, forward, backward);
    runningExtreme(rowHigh, x, width, height, across, high, true, forward, backward);
  }
  const span = new Uint8Array(data.length);
  const spans = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) {
    span[i] = high[i] - low[i];
    if (span[i] >= MIN_LOCAL_SPAN) spans[span[i]]++;
  }
  // Print as dark everywhere (no pale stretch): nothing to even out, and no second OCR pass.
  const quantile = (q: number) => {
    const total = spans.reduce((a, b) => a + b, 0);
    for (let v = 0, seen = 0; v < 256; v++) if ((seen += spans[v]) >= q * total) return v;
    return 255;
  };
  if (quantile(0.1) >= UNEVEN_SPAN_RATIO * quantile(0.9)) return undefined;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++)
    out[i] = span[i] < MIN_LOCAL_SPAN ? 255 : Math.round(((data[i] - low[i]) * 255) / span[i]);
  return { data: out, width, height };
}

/** Leans tried (horizontal px per vertical px), up to ±0.36 (~20°), and the step between them. */
const MAX_LEAN = 0.36;
const LEAN_STEP = 0.02;

/**
 * The band with its glyphs stood upright. A photo taken from one side (perspective) or a page
 * sheared in the frame leaves the lines level once turned but every glyph leaning, which both the
 * glyph reader's cells and the OCR read worse. OCR-B's stems are upright, so the lean is the shear
 * whose column projection of the stems' edges is the sharpest; rows are shifted to undo it.
 */
export function unleaned(image: GreyImage): GreyImage {
  const { data, width, height } = image;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const d = data[i + 1] - data[i - 1];
      if (d > EDGE_STEP || d < -EDGE_STEP) {
        xs.push(x);
        ys.push(y);
      }
    }
  if (xs.length < 50) return image;
  const middle = height / 2;
  const pad = Math.ceil(MAX_LEAN * middle) + 2;
  const sharpness = (lean: number) => {
    const columns = new Uint32Array(width + 2 * pad);
    for (let i = 0; i < xs.length; i++) columns[Math.round(xs[i] + lean * (ys[i] - middle)) + pad]++;
    let score = 0;
    for (const c of columns) score += c * c;
    return score;
  };
  let best = { lean: 0, score: sharpness(0) };
  for (let k = 1; k * LEAN_STEP <= MAX_LEAN + 1e-9; k++)
    for (const lean of [k * LEAN_STEP, -k * LEAN_STEP]) {
      const score = sharpness(lean);
      if (score > best.score) best = { lean, score };
    }
  // An upright zone scores best at 0 or next to it: resampling it would only blur its glyphs.
  if (Math.abs(best.lean) < 1.5 * LEAN_STEP) return image;
  const { lean } = best;
  const shift = Math.ceil(Math.abs(lean) * middle);
  const w = width + 2 * shift;
  const out = new Uint8Array(w * height).fill(255);
  for (let y = 0; y < height; y++) {
    // Upright pixel (x, y) lies at x − lean × (y − middle) in the leaning band (before the padding).
    const offset = -lean * (y - middle) - shift;
    for (let x = 0; x < w; x++) {
      const sx = x + offset;
      const x0 = Math.floor(sx);
      if (x0 < 0 || x0 + 1 >= width) continue;
      const f = sx - x0;
      out[y * w + x] = Math.round(data[y * width + x0] * (1 - f) + data[y * width + x0 + 1] * f);
    }
  }
  return { data: out, width: w, height };
}

/** A band's pixels as a binary PGM file: what the OCR is given, with no PNG to encode or decode. */
export function pgm(image: GreyImage): Uint8Array<ArrayBuffer> {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header);
  out.set(image.data, header.length);
  return out;
}

/** The grey image turned a quarter: clockwise (`1`) or counter-clockwise (`-1`). */
function quarterTurn(grey: Uint8Array, width: number, height: number, direction: 1 | -1): Uint8Array {
  const out = new Uint8Array(grey.length);
  // Turned clockwise, pixel (x, y) goes to (height − 1 − y, x) of an image `height` wide.
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      out[direction === 1 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y] =
        grey[y * width + x];
  return out;
}

/** The image turned half a turn (a zone read upside down is read again this way). */
export function halfTurn(image: GreyImage): GreyImage {
  return { ...image, data: image.data.slice().reverse() };
}

/**
 * The levelled pixels of every MRZ band of the grey image, lowest first; when none lies across it,
 * those of the image turned a quarter either way (a passport photographed sideways, a page scanned
 * on its side), clockwise first, unless `quarterTurns` is off (the live camera's hint, a few times
 * a second, looks upright only). The readers try a band turned half a turn too when it reads as
 * nothing, so a zone upside down is read as well.
 */
export function levelledMrzBands(
  grey: Uint8Array,
  width: number,
  height: number,
  { quarterTurns = true } = {},
): GreyImage[] {
  const upright = findMrzBands(grey, width, height);
  if (upright.length > 0 || !quarterTurns) return upright.map((band) => mrzBandPixels(grey, width, band));
  return ([1, -1] as const).flatMap((direction) => {
    const turned = quarterTurn(grey, width, height, direction);
    return findMrzBands(turned, height, width).map((band) => mrzBandPixels(turned, height, band));
  });
}
