/**
 * A fast reader for the machine-readable zone's glyphs, tried before the OCR: an MRZ is printed in
 * a fixed-pitch typeface (OCR-B) with an alphabet of 37 characters, so once its band is found and
 * levelled (`mrz-band.ts`) each line can be cut into equal cells and each cell compared with the
 * glyphs of known typefaces (`mrz-glyph-templates.ts`). That takes a few milliseconds where the
 * OCR's LSTM takes ~70 ms a line. The reading is kept only when every cell matches one glyph
 * clearly (`GLYPH_MIN_SCORE`, `GLYPH_MIN_MARGIN`) and the check digits hold; anything less
 * (another typeface, blur, a pattern behind the print) goes to the OCR as before. Used by the
 * service and the wizard alike.
 */
import { MRZ_ALPHABET, mrzLines, parseMrzLines, type MrzParseResult, type MrzRead } from './document-reading';
import type { GreyImage } from './mrz-band';
import { correctMrz, MRZ_FIELDS, MRZ_FORMATS, mrzAllows, mrzFieldLayout } from './mrz-fields';
import { GLYPH_TEMPLATES } from './mrz-glyph-templates';

/** Size of a glyph's feature: its cell resampled to this grid. */
export const GLYPH_GRID_W = 12;
export const GLYPH_GRID_H = 18;

/**
 * Least correlation of a cell with its best glyph, and least lead of that glyph over the best
 * other character where no check digit covers it, for a reading to stand without the OCR (and
 * then only when its check digits hold). Measured on the samples (DejaVu Sans Mono) and on an
 * OCR-B page in photo-like variants (turned 3° and 4.5°, framed small, 2500 px, 700 px at JPEG
 * quality 60, dulled, blurred σ 1): weakest cell 0.76–0.92, least lead 0.035–0.16 (DejaVu's O
 * and Q are the closest pair); blurred σ 1.8: 0.66–0.76 with leads of 0.004–0.02 (those go to the
 * OCR).
 */
export const GLYPH_MIN_SCORE = 0.7;
export const GLYPH_MIN_MARGIN = 0.03;

interface TextLine {
  top: number;
  bottom: number;
  /** Dark pixels per column between top and bottom. */
  columns: Uint16Array;
  left: number;
  right: number;
}

/** One glyph's place: the line's rows and a window one pitch wide about its print. */
export interface GlyphCell {
  x: number;
  top: number;
  bottom: number;
  pitch: number;
}

/** Otsu's threshold: the grey level that best splits print from paper. */
function otsu(data: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const v of data) histogram[v]++;
  let total = 0;
  for (let v = 0; v < 256; v++) total += v * histogram[v];
  let below = 0;
  let belowSum = 0;
  let best = 127;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    below += histogram[t];
    if (below === 0) continue;
    const above = data.length - below;
    if (above === 0) break;
    belowSum += t * histogram[t];
    const difference = belowSum / below - (total - belowSum) / above;
    const variance = below * above * difference * difference;
    if (variance > bestVariance) [bestVariance, best] = [variance, t];
  }
  return best;
}

/**
 * Rows of print: runs of rows crossed by many print edges (a dark patch, such as a document's edge
 * in the band, has dark pixels but few edges), each with its columns' dark pixels and the longest
 * stretch of columns whose gaps stay under a line height's worth (MRZ glyphs, filler included,
 * leave no wider gap, so a shadow or an edge beside the line is left out).
 */
function textLines(image: GreyImage, threshold: number): TextLine[] {
  const { data, width, height } = image;
  const rows = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    let edges = 0;
    for (let i = y * width + 1, end = (y + 1) * width; i < end; i++)
      if (data[i] <= threshold !== data[i - 1] <= threshold) edges++;
    rows[y] = edges;
  }
  const busiest = Math.max(...rows);
  const floor = Math.max(4, busiest * 0.15);
  const runs: [number, number][] = [];
  for (let y = 0; y < height;) {
    if (rows[y] < floor) {
      y++;
      continue;
    }
    const start = y;
    while (y < height && rows[y] >= floor) y++;
    runs.push([start, y]);
  }
  const tallest = Math.max(0, ...runs.map(([a, b]) => b - a));
  return runs
    .filter(([a, b]) => b - a >= Math.max(4, tallest * 0.5))
    .map(([top, bottom]) => {
      const columns = new Uint16Array(width);
      for (let y = top; y < bottom; y++)
        for (let x = 0, i = y * width; x < width; x++, i++) if (data[i] <= threshold) columns[x]++;
      const maxGap = Math.max(2, Math.round((bottom - top) * 0.8));
      let left = 0;
      let right = -1;
      for (let x = 0; x < width;) {
        if (columns[x] === 0) {
          x++;
          continue;
        }
        const from = x;
        let last = x;
        while (x < width && x - last <= maxGap) {
          if (columns[x] > 0) last = x;
          x++;
        }
        if (last - from > right - left) [left, right] = [from, last];
        x = last + 1;
      }
      return { top, bottom, columns, left, right };
    });
}

/**
 * The pitch and first cut of each line for `glyphs` characters a line: the equal cuts that cross
 * the least print (between fixed-pitch glyphs there is paper). Returns the share of the cut
 * columns' pixels that are print (low when the count is right), with the cuts.
 */
function fitPitch(lines: TextLine[], glyphs: number) {
  const extent = Math.max(...lines.map((l) => l.right - l.left + 1));
  // The ink of N glyphs spans N − 1 pitches plus most of the last glyph.
  const low = extent / glyphs;
  const high = extent / (glyphs - 1.0);
  let best = { cost: Infinity, pitch: low, starts: lines.map((l) => l.left) };
  for (let pitch = low; pitch <= high; pitch += 0.05) {
    let cost = 0;
    const starts: number[] = [];
    for (const line of lines) {
      let lineBest = Infinity;
      let lineStart = line.left;
      for (let x0 = line.left - pitch * 0.6; x0 <= line.left; x0 += 0.5) {
        let ink = 0;
        for (let k = 0; k <= glyphs; k++) {
          const x = Math.round(x0 + k * pitch);
          if (x >= 0 && x < line.columns.length) ink += line.columns[x];
        }
        if (ink < lineBest) [lineBest, lineStart] = [ink, x0];
      }
      cost += lineBest / ((glyphs + 1) * (line.bottom - line.top));
      starts.push(lineStart);
    }
    cost /= lines.length;
    if (cost < best.cost) best = { cost, pitch, starts };
  }
  return best;
}

/**
 * How a line still drifts up or down along its length (the band is levelled to the nearest of a
 * few slants, so a photo turned 3° keeps a drift of a few pixels over the line): a least-squares
 * line through the middles of the columns whose print spans the full glyph height (the stems of
 * letters and digits; filler and round tops are lower, and would pull the fit towards them).
 * Returns the drift per pixel, the line's middle row at its centre and the glyph height.
 */
function lineSlope(image: GreyImage, threshold: number, line: TextLine) {
  const { data, width } = image;
  const spans: { x: number; first: number; last: number }[] = [];
  for (let x = line.left; x <= line.right; x++) {
    let first = -1;
    let last = -1;
    for (let y = line.top; y < line.bottom; y++)
      if (data[y * width + x] <= threshold) {
        if (first < 0) first = y;
        last = y;
      }
    if (first >= 0) spans.push({ x, first, last });
  }
  const flat = { slope: 0, middle: (line.top + line.bottom) / 2, height: line.bottom - line.top };
  if (spans.length < 8) return flat;
  const extents = spans.map((s) => s.last - s.first + 1).sort((a, b) => a - b);
  const full = extents[Math.floor(extents.length * 0.9)];
  const stems = spans.filter((s) => s.last - s.first + 1 >= 0.8 * full);
  const centre = (line.left + line.right) / 2;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (const { x, first, last } of stems) {
    const dx = x - centre;
    const my = (first + last + 1) / 2;
    sx += dx;
    sy += my;
    sxx += dx * dx;
    sxy += dx * my;
  }
  const n = stems.length;
  const denominator = n * sxx - sx * sx;
  if (n < 4 || !denominator) return flat;
  const slope = (n * sxy - sx * sy) / denominator;
  const heights = stems.map((s) => s.last - s.first + 1).sort((a, b) => a - b);
  return { slope, middle: (sy - slope * sx) / n, height: heights[Math.floor(n / 2)] };
}

/**
 * The lines as found, and, where their ends disagree, cut to each other's ends: lines of one zone
 * start and end alike, so a line longer than another at one end has joined something beside the
 * zone there (a page edge's shadow, a smudge of the copy); the reading whose cuts fit best wins.
 */
function lineEnds(lines: TextLine[]): TextLine[][] {
  const tolerance = Math.max(...lines.map((l) => l.bottom - l.top)) / 2;
  const distinct = (values: number[]) =>
    values.filter((v, i) => values.findIndex((w) => Math.abs(w - v) <= tolerance) === i);
  const lefts = distinct(lines.map((l) => l.left));
  const rights = distinct(lines.map((l) => l.right));
  if (lefts.length === 1 && rights.length === 1) return [lines];
  return lefts.flatMap((left) =>
    rights.map((right) =>
      lines.map((l) => ({ ...l, left: Math.max(l.left, left), right: Math.min(l.right, right) })),
    ),
  );
}

/** Cuts the band's lines into glyph cells (null when it does not look like 2–3 fixed-pitch lines). */
export function glyphCells(image: GreyImage): { threshold: number; lines: GlyphCell[][] } | null {
  const threshold = otsu(image.data);
  const lines = textLines(image, threshold);
  const formats = MRZ_FORMATS[lines.length];
  if (!formats) return null;
  const fits = lineEnds(lines).flatMap((ends) =>
    formats.map((glyphs) => ({ glyphs, lines: ends, ...fitPitch(ends, glyphs) })),
  );
  const fit = fits.reduce((a, b) => (b.cost < a.cost ? b : a));
  // A right count leaves the cuts almost clear of print.
  if (fit.cost > 0.06) return null;
  const cells = fit.lines.map((line, index) => {
    const { slope, middle, height } = lineSlope(image, threshold, line);
    const cells: GlyphCell[] = [];
    for (let k = 0; k < fit.glyphs; k++) {
      const from = Math.max(0, Math.round(fit.starts[index] + k * fit.pitch));
      const to = Math.min(line.columns.length, Math.round(fit.starts[index] + (k + 1) * fit.pitch));
      // Centred on its print's centre of mass, a little at most (a neighbour's stroke may reach in).
      let mass = 0;
      let moment = 0;
      for (let x = from; x < to; x++) {
        mass += line.columns[x];
        moment += line.columns[x] * (x + 0.5);
      }
      const centreOfCut = (from + to) / 2;
      const reach = fit.pitch * 0.15;
      const centre = mass
        ? Math.min(centreOfCut + reach, Math.max(centreOfCut - reach, moment / mass))
        : centreOfCut;
      const y = middle + slope * (centre - (line.left + line.right) / 2);
      cells.push({
        x: centre - fit.pitch / 2,
        top: y - height / 2,
        bottom: y + height / 2,
        pitch: fit.pitch,
      });
    }
    return cells;
  });
  return { threshold, lines: cells };
}

/**
 * A cell's feature: its print (a soft threshold around the band's print/paper level, so a pale
 * pattern behind the print counts as paper), rows a fifth of the line height above and below
 * included, area-averaged onto the grid, centred and scaled to unit length, so the dot product of
 * two features is their correlation.
 */
export function glyphFeature(image: GreyImage, cell: GlyphCell, threshold: number): Float32Array {
  const ink = new Float32Array(256);
  for (let v = 0; v < 256; v++) ink[v] = Math.min(1, Math.max(0, (threshold + 32 - v) / 64));
  const { data, width, height } = image;
  const pad = (cell.bottom - cell.top) * 0.2;
  const top = cell.top - pad;
  const cellHeight = cell.bottom - cell.top + 2 * pad;
  const feature = new Float32Array(GLYPH_GRID_W * GLYPH_GRID_H);
  const counts = new Float32Array(feature.length);
  const x0 = Math.floor(cell.x);
  const x1 = Math.ceil(cell.x + cell.pitch);
  const y0 = Math.floor(top);
  const y1 = Math.ceil(top + cellHeight);
  for (let y = y0; y < y1; y++) {
    const gy = Math.min(
      GLYPH_GRID_H - 1,
      Math.max(0, Math.floor(((y + 0.5 - top) / cellHeight) * GLYPH_GRID_H)),
    );
    for (let x = x0; x < x1; x++) {
      const gx = Math.min(
        GLYPH_GRID_W - 1,
        Math.max(0, Math.floor(((x + 0.5 - cell.x) / cell.pitch) * GLYPH_GRID_W)),
      );
      const inside = x >= 0 && x < width && y >= 0 && y < height;
      feature[gy * GLYPH_GRID_W + gx] += inside ? ink[data[y * width + x]] : 0;
      counts[gy * GLYPH_GRID_W + gx]++;
    }
  }
  let mean = 0;
  for (let i = 0; i < feature.length; i++) mean += feature[i] /= Math.max(1, counts[i]);
  mean /= feature.length;
  let norm = 0;
  for (let i = 0; i < feature.length; i++) norm += (feature[i] -= mean) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < feature.length; i++) feature[i] /= norm;
  return feature;
}

/** The templates as unit features per typeface, decoded once. */
let decoded: { font: string; glyphs: Float32Array[] }[] | undefined;
function templates() {
  decoded ??= GLYPH_TEMPLATES.map(({ font, data }) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const size = GLYPH_GRID_W * GLYPH_GRID_H;
    const glyphs = [...MRZ_ALPHABET].map((_, c) => {
      const glyph = new Float32Array(size);
      let norm = 0;
      for (let i = 0; i < size; i++) norm += (glyph[i] = ((bytes[c * size + i] << 24) >> 24) / 127) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < size; i++) glyph[i] /= norm;
      return glyph;
    });
    return { font, glyphs };
  });
  return decoded;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
};

export interface GlyphReading {
  lines: string[];
  /** The typeface whose glyphs matched. */
  font: string;
  /**
   * The weakest cell's correlation with its glyph, and the least lead of a glyph over the next
   * character where no check digit covers it (letters: names, states, document code, sex).
   */
  minScore: number;
  minMargin: number;
  /** Whether every cell matched clearly enough for the reading to stand without the OCR. */
  confident: boolean;
  /**
   * Per line and position, the characters the pixels leave open there (the one read first): those
   * a check digit may swap the read one for (`correctMrz`), so that no failed check digit is
   * "repaired" with a character the print does not show.
   */
  plausible: string[][];
}

/**
 * Characters that differ by a detail a photo loses, in fields that may hold letters and digits
 * (document numbers, optional data), where the typeface's glyphs alone do not tell them apart
 * reliably: OCR-B's 0 and O differ by a few percent of their width, so a photo's zeros came out as
 * O in runs (`CAOO00O0`) that a check digit happened to pass after one swap.
 */
const LOOKALIKE_GROUPS = ['0O', '1I', '2Z', '5S', '6G', '8B', '<K'];
/**
 * Lead given to the digit of the 0/O pair: document numbers and optional data are mostly digits,
 * several states leave the letter O out of them, and the two glyphs are nearly one (the zone's own
 * zeros and Os, measured on the specimens, differ by 0.00–0.05 in correlation).
 */
const ZERO_LEAD = 0.03;
/**
 * The zone's own glyphs are references only when its prints of one character agree with each
 * other (median correlation of a print with the others of its character): on the specimens
 * 0.93–0.99, and 0.82–0.87 where the cells are cut badly (a zone reaching a page's edge), where
 * they would mislead.
 */
const MIN_SELF_AGREEMENT = 0.9;
/**
 * How far below the read character another one may score and still be one a check digit may put
 * there: the swaps a misread 0/O, 8/B or 5/S needs were within 0.06; a 2 swapped for a Z or a 0
 * for a D to make a misprinted zone's digits hold were 0.15 and more below.
 */
const PLAUSIBLE_MARGIN = 0.08;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};

/** Unit vector of `v` (in place). */
const normalise = (v: Float32Array) => {
  const norm = Math.sqrt(dot(v, v)) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
};

/**
 * Scores of every character at every cell of a document number or optional data, in one comparable unit: the correlation with the
 * zone's own prints of it (the mean of the cells where only letters or only digits may stand,
 * which the field decides) less what such prints score with each other, or, for a character not
 * printed there, the correlation with the typeface's glyph less what the zone's characters score
 * with theirs. Null when the zone's prints disagree (`MIN_SELF_AGREEMENT`).
 */
function zoneScores(
  features: Float32Array[][],
  template: Float32Array[][],
  lines: string[],
  fieldsOf: (l: number) => string,
): Float32Array[][] | null {
  const size = GLYPH_GRID_W * GLYPH_GRID_H;
  const prints = new Map<number, Float32Array[]>();
  const templateFit: number[] = [];
  lines.forEach((line, l) =>
    [...line].forEach((char, k) => {
      if (fieldsOf(l)[k] === 'X') return;
      const c = MRZ_ALPHABET.indexOf(char);
      prints.set(c, [...(prints.get(c) ?? []), features[l][k]]);
      templateFit.push(template[l][k][c]);
    }),
  );
  const means = new Map<number, Float32Array>();
  const agreement: number[] = [];
  for (const [c, cells] of prints) {
    const sum = new Float32Array(size);
    for (const f of cells) for (let i = 0; i < size; i++) sum[i] += f[i];
    means.set(c, normalise(Float32Array.from(sum)));
    if (cells.length > 1)
      for (const f of cells) agreement.push(dot(f, normalise(sum.map((v, i) => v - f[i]))));
  }
  const selfScore = median(agreement);
  if (agreement.length === 0 || selfScore < MIN_SELF_AGREEMENT) return null;
  const templateScore = median(templateFit);
  // Only document numbers and optional data are re-read or swapped: other cells keep their scores.
  return features.map((line, l) =>
    line.map((feature, k) =>
      fieldsOf(l)[k] !== 'X'
        ? template[l][k]
        : Float32Array.from(MRZ_ALPHABET, (_, c) => {
            const mean = means.get(c);
            return mean ? dot(feature, mean) - selfScore : template[l][k][c] - templateScore;
          }),
    ),
  );
}

/** Reads the band's glyphs against the templates; null when the band cannot be cut into cells. */
export function readMrzGlyphs(image: GreyImage): GlyphReading | null {
  const cut = glyphCells(image);
  if (!cut) return null;
  const cells = cut.lines;
  const features = cells.map((line) => line.map((cell) => glyphFeature(image, cell, cut.threshold)));
  let best:
    | { total: number; reading: Omit<GlyphReading, 'plausible'>; scores: Float32Array[][]; fields: string[] }
    | undefined;
  for (const { font, glyphs } of templates()) {
    let minScore = 1;
    let minMargin = 1;
    let total = 0;
    // The first line's field kinds are the format's; the others' follow from it (a visa's `V`).
    let fields = MRZ_FIELDS[cells[0].length];
    const fieldsPerLine: string[] = [];
    const scores: Float32Array[][] = [];
    let firstLine = '';
    const lines = features.map((line, l) => {
      if (l === 1) fields = mrzFieldLayout(features.length, firstLine) ?? fields;
      fieldsPerLine.push(fields[l]);
      // Scores of the characters the field allows (the others stay at -Infinity).
      scores.push(
        line.map(
          (feature, k) =>
            new Float32Array(
              glyphs.map((glyph, c) =>
                mrzAllows(fields[l][k], MRZ_ALPHABET[c]) ? dot(feature, glyph) : -Infinity,
              ),
            ),
        ),
      );
      const text = scores[l]
        .map((cellScores, k) => {
          let first = -Infinity;
          let second = -Infinity;
          let char = 0;
          cellScores.forEach((score, c) => {
            if (score > first) [second, first, char] = [first, score, c];
            else if (score > second) second = score;
          });
          minScore = Math.min(minScore, first);
          // Digits and document numbers are covered by check digits; letters (names, states) are not.
          if (fields[l][k] === 'A') minMargin = Math.min(minMargin, first - second);
          total += first;
          return MRZ_ALPHABET[char];
        })
        .join('');
      if (l === 0) firstLine = text;
      return text;
    });
    // The typeface is the one whose glyphs match the zone best overall.
    if (!best || total > best.total)
      best = {
        total,
        scores,
        fields: fieldsPerLine,
        reading: {
          lines,
          font,
          minScore,
          minMargin,
          confident: minScore >= GLYPH_MIN_SCORE && minMargin >= GLYPH_MIN_MARGIN,
        },
      };
  }
  if (!best) return null;
  const { reading, fields } = best;
  // Look-alikes in document numbers and optional data, told apart by the zone's own prints.
  const zone = zoneScores(features, best.scores, reading.lines, (l) => fields[l]);
  const scores = zone ?? best.scores;
  const lines = reading.lines.map((line, l) =>
    [...line]
      .map((char, k) => {
        const group = zone && fields[l][k] === 'X' && LOOKALIKE_GROUPS.find((g) => g.includes(char));
        if (!group) return char;
        const lead = (c: string) => (group === '0O' && c === '0' ? ZERO_LEAD : 0);
        return [...group].reduce((a, b) =>
          scores[l][k][MRZ_ALPHABET.indexOf(b)] + lead(b) > scores[l][k][MRZ_ALPHABET.indexOf(a)] + lead(a)
            ? b
            : a,
        );
      })
      .join(''),
  );
  const plausible = lines.map((line, l) =>
    [...line].map((char, k) => {
      // correctMrz swaps in document numbers and optional data only.
      if (fields[l][k] !== 'X') return char;
      const floor = scores[l][k][MRZ_ALPHABET.indexOf(char)] - PLAUSIBLE_MARGIN;
      const others = [...MRZ_ALPHABET].filter(
        (c, i) => c !== char && mrzAllows(fields[l][k], c) && scores[l][k][i] >= floor,
      );
      return char + others.join('');
    }),
  );
  return { ...reading, lines, plausible };
}

/**
 * The zone as read by the glyph reader alone, when it is sure of every glyph and the check digits
 * hold; null sends the band to the OCR (so a failed check digit is always the OCR's verdict too).
 */
export function readMrzByGlyphs(
  image: GreyImage,
  parse: (lines: string[]) => MrzParseResult,
  isState?: (code: string) => boolean,
  glyphs = readMrzGlyphs(image),
): MrzRead | null {
  if (!glyphs?.confident) return null;
  const read = parseMrzLines(correctMrz(mrzLines(glyphs.lines.join('\n')), isState, glyphs.plausible), parse);
  return read.found && read.valid ? read : null;
}

/**
 * What the glyph reader gives a band before any OCR, in the service and the wizard alike: the zone
 * when it read it alone (upright, else turned half a turn), and the characters the upright band's
 * pixels leave open per position, which bound the check digits' swaps in the OCR's reading.
 */
export function glyphsOfBand(
  image: GreyImage,
  turned: GreyImage,
  parse: (lines: string[]) => MrzParseResult,
  isState?: (code: string) => boolean,
): { byGlyphs?: MrzRead; plausible?: string[][] } {
  const upright = readMrzGlyphs(image);
  const byGlyphs = readMrzByGlyphs(image, parse, isState, upright) ?? readMrzByGlyphs(turned, parse, isState);
  return { ...(byGlyphs ? { byGlyphs } : {}), ...(upright ? { plausible: upright.plausible } : {}) };
}
