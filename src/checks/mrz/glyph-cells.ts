/**
 * The MRZ band cut into glyph cells and each cell's feature (`mrz-glyphs.ts` reads them against
 * the templates; `scripts/make-mrz-glyphs.ts` makes the templates from them): lines found by the
 * print's rows, their pitch fitted to the zone's line length, their slope and ends.
 */
import type { GreyImage } from './mrz-band';
import { MRZ_FORMATS } from './mrz-fields';

/** Size of a glyph's feature: its cell resampled to this grid. */
export const GLYPH_GRID_W = 12;
export const GLYPH_GRID_H = 18;

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
