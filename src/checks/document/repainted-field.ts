/**
 * A printed field repainted over: a patch of flat fill with text drawn on it, pasted among the
 * personal data. Neither sign alone tells it: blank paper beside the portrait is as clean as a
 * fill (7–12 times cleaner than the rest on genuine specimens), and a genuine field's text may be
 * as sharp as the document's sharpest. Together they do: a window of the data area much cleaner
 * than the rest of the document whose text edges are also sharper than nearly all of the rest's
 * (text drawn at the photo's own pixels, on a document the optics or an enlargement softened).
 * The figures the thresholds were checked against are in README.md.
 */
import { storedBox, type AlterationMap, type ShareBox } from './alteration';

/** The window's flattest quarter of blocks this many times cleaner than the rest's. */
export const FIELD_CLEANER_MIN = 5;
/** Its text's median sharpness this much above the rest's 90th percentile. */
export const FIELD_SHARPER_MIN = 0.08;
/** Text blocks (sharpness measured) a window needs to be judged. */
export const FIELD_TEXT_BLOCKS_MIN = 6;
/** A rest grainier than this is a pattern, not a sensor's grain (NOISE_REST_MAX, per block). */
const REST_NOISE_MAX = 30;

/** The value at share `p` of the finite values (sorted in place). */
function quantile(values: number[], p: number): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return finite.length ? finite[Math.min(finite.length - 1, Math.floor(p * finite.length))]! : Number.NaN;
}

export interface RepaintedWindow {
  /** The window in the stored photo's shares. */
  stored: [number, number, number, number];
  cleaner: number;
  sharper: number;
}

/**
 * The window (`window`, shown shares) of `area` most clearly repainted, or null when none is;
 * undefined when the map has no blocks or the rest cannot be compared (too few blocks, a pattern).
 * The rest is the document outside `area`.
 */
export function findRepaintedField(
  map: AlterationMap,
  area: ShareBox,
  window: { w: number; h: number },
  document: ShareBox,
): RepaintedWindow | null | undefined {
  const { blockCols: cols, blockRows: rows, blockNoise: noise, blockSharpness: sharpness } = map;
  if (!cols || !rows || !noise || !sharpness) return undefined;
  const toBlocks = (box: ShareBox) => {
    const [x0, x1, y0, y1] = storedBox(map.orientation, box);
    return [
      Math.max(0, Math.round(x0 * cols)),
      Math.min(cols, Math.round(x1 * cols)),
      Math.max(0, Math.round(y0 * rows)),
      Math.min(rows, Math.round(y1 * rows)),
    ] as const;
  };
  const [ax0, ax1, ay0, ay1] = toBlocks(area);
  const [dx0, dx1, dy0, dy1] = toBlocks(document);
  const [, ww, , wh] = toBlocks({ x: 0, y: 0, w: window.w, h: window.h }).map((v) => Math.max(2, v));
  const restNoise: number[] = [];
  const restSharpness: number[] = [];
  for (let y = dy0; y < dy1; y++) {
    for (let x = dx0; x < dx1; x++) {
      if (x >= ax0 && x < ax1 && y >= ay0 && y < ay1) continue;
      restNoise.push(noise[y * cols + x]!);
      restSharpness.push(sharpness[y * cols + x]!);
    }
  }
  if (restNoise.length < 64) return undefined;
  const restClean = quantile(restNoise, 0.25);
  const restSharp = quantile(restSharpness, 0.9);
  if (!(restClean <= REST_NOISE_MAX) || !Number.isFinite(restSharp)) return undefined;
  // Each window's quantiles are told by counts: its flattest quarter is `cleaner` when a quarter of
  // its blocks are under restClean / FIELD_CLEANER_MIN, its median text `sharper` when half of its
  // measured blocks reach restSharp + FIELD_SHARPER_MIN. Summed-area tables count them in O(1).
  const cleanBelow = restClean / FIELD_CLEANER_MIN;
  // A quarter measured under 0.1 counts as 0.1 (a fill's JPEG ripple): the rest must be grainier.
  if (cleanBelow < 0.1) return null;
  const sharpFrom = restSharp + FIELD_SHARPER_MIN;
  const w1 = cols + 1;
  const clean = new Int32Array(w1 * (rows + 1));
  const text = new Int32Array(w1 * (rows + 1));
  const sharp = new Int32Array(w1 * (rows + 1));
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const b = y * cols + x;
      const i = (y + 1) * w1 + x + 1;
      const s = sharpness[b]!;
      clean[i] = (noise[b]! <= cleanBelow ? 1 : 0) + clean[i - 1]! + clean[i - w1]! - clean[i - w1 - 1]!;
      text[i] = (Number.isFinite(s) ? 1 : 0) + text[i - 1]! + text[i - w1]! - text[i - w1 - 1]!;
      sharp[i] = (s >= sharpFrom ? 1 : 0) + sharp[i - 1]! + sharp[i - w1]! - sharp[i - w1 - 1]!;
    }
  }
  const count = (table: Int32Array, x0: number, y0: number) =>
    table[(y0 + wh!) * w1 + x0 + ww!]! -
    table[y0 * w1 + x0 + ww!]! -
    table[(y0 + wh!) * w1 + x0]! +
    table[y0 * w1 + x0]!;
  const blocks = ww! * wh!;
  let found: [number, number, number] | undefined;
  for (let y0 = ay0; y0 + wh! <= ay1; y0++) {
    for (let x0 = ax0; x0 + ww! <= ax1; x0++) {
      const measured = count(text, x0, y0);
      if (measured < FIELD_TEXT_BLOCKS_MIN) continue;
      if (count(clean, x0, y0) < Math.floor(0.25 * blocks) + 1) continue;
      const sharpBlocks = count(sharp, x0, y0);
      if (sharpBlocks < measured - Math.floor(measured / 2)) continue;
      if (!found || sharpBlocks / measured > found[2]) found = [x0, y0, sharpBlocks / measured];
    }
  }
  if (!found) return null;
  const [x0, y0] = found;
  const inNoise: number[] = [];
  const inSharpness: number[] = [];
  for (let y = y0; y < y0 + wh!; y++) {
    for (let x = x0; x < x0 + ww!; x++) {
      inNoise.push(noise[y * cols + x]!);
      inSharpness.push(sharpness[y * cols + x]!);
    }
  }
  const best: RepaintedWindow = {
    stored: [x0 / cols, (x0 + ww!) / cols, y0 / rows, (y0 + wh!) / rows],
    cleaner: restClean / Math.max(quantile(inNoise, 0.25), 0.1),
    sharper: quantile(inSharpness, 0.5) - restSharp,
  };
  return best;
}
