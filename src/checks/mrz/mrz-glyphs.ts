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
import { GLYPH_GRID_H, GLYPH_GRID_W, glyphCells, glyphFeature } from './glyph-cells';
import { correctMrz, MRZ_FIELDS, mrzAllows, mrzFieldLayout } from './mrz-fields';
import { GLYPH_TEMPLATES } from './mrz-glyph-templates';

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
