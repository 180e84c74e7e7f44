/**
 * Alteration detection's rules: what the pixels and the file of a document photo show of a region
 * changed after the photo was taken (a portrait or a field pasted in, text repainted) or of the
 * file passing through an editor. The engine (`node/alteration-map.ts`) measures the photo's noise
 * tile by tile; `judgeAlteration` compares each named region (the portrait, the fields) with the
 * rest of the document. The figures the thresholds were checked against are in README.md.
 */

import { findRepaintedField } from './repainted-field';

/** Side of the square tiles the photo is measured by, in its stored pixels. */
export const ALTERATION_TILE = 32;

/**
 * Image editors, named in a file's metadata (EXIF Software, XMP CreatorTool, Photoshop's IRB, a
 * comment): a camera or a phone names itself or its firmware, never these. Lightroom and Snapseed
 * retouch photos; a document photo has no reason to pass through them either.
 */
export const IMAGE_EDITOR_PATTERN =
  /photoshop|\bgimp\b|pixelmator|affinity\s*photo|paint\.net|photopea|\bcanva\b|picsart|snapseed|lightroom|\bfotor\b|photoscape|\bpixlr\b|\bkrita\b|paintshop|corel\s*photo|facetune|meitu|befunky|inpaint|photodirector|acdsee/i;

/**
 * Adobe's names that every XMP or IPTC writer uses (the `photoshop:` namespace of XMP, its URL, the
 * resource block's signature): no sign of the editor itself.
 */
const ADOBE_VOCABULARY = /xmlns:photoshop|ns\.adobe\.com\/photoshop|photoshop:|photoshop 3\.0/gi;

/** The editor a file's metadata text names (a Software or CreatorTool value, a comment), or undefined. */
export function editorNamed(text: string): string | undefined {
  return IMAGE_EDITOR_PATTERN.exec(text.replace(ADOBE_VOCABULARY, ' '))?.[0];
}

/** What the engine measured, per tile of the photo as stored (row by row, `cols`×`rows`). */
export interface AlterationMap {
  width: number;
  height: number;
  /** EXIF orientation (1–8): how the stored photo is turned to be shown. */
  orientation: number;
  cols: number;
  rows: number;
  /** The editor the metadata names. */
  editor?: string;
  /** The flattest 8×8 block's mean absolute Laplacian, per tile (NaN: a tile with no whole block). */
  noise: Float32Array;
  /** The photo in 8×8 blocks (stored, row by row): what a repainted field is looked for by. */
  blockCols?: number;
  blockRows?: number;
  /** Each block's mean absolute Laplacian (its grain, or its print where it has any). */
  blockNoise?: Float32Array;
  /**
   * Each block's steepest step between neighbours over its range (NaN: a range under
   * SHARPNESS_CONTRAST_MIN): near 1 where an edge turns in one pixel, 1/s where the optics or an
   * enlargement spread it over s.
   */
  blockSharpness?: Float32Array;
}

/** The range of luma (0–255) a block needs for its sharpness to be measured. */
export const SHARPNESS_CONTRAST_MIN = 48;

/** A box as shares of the shown photo's width and height. */
export interface ShareBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface AlterationFinding {
  region: string;
  kind: 'mismatch' | 'compression' | 'noise' | 'editor';
  detail: string;
}

/**
 * A region this many times cleaner than the rest of the document, and by this much at least: a
 * photo or text pasted from a cleaner source than the camera or the scanner that took the rest.
 * Only cleaner: printed text and a portrait's detail leave no flat block in a tile, so a genuine
 * field or portrait often measures grainier than the background around it (three specimens of
 * the real specimens of bench:accuracy by 3–9 times), never this much cleaner.
 */
export const NOISE_RATIO_MIN = 5;
export const NOISE_DIFFERENCE_MIN = 1.5;
/**
 * A document whose flattest blocks measure more than this shows a pattern, not a sensor's grain
 * (the specimens' 1.8–12; the tests' noise pictures 110–150): no region is compared with it.
 */
export const NOISE_REST_MAX = 30;

/** A shown point (shares) in the stored photo's shares, undoing the EXIF orientation. */
function storedPoint(orientation: number, x: number, y: number): [number, number] {
  switch (orientation) {
    case 2:
      return [1 - x, y];
    case 3:
      return [1 - x, 1 - y];
    case 4:
      return [x, 1 - y];
    case 5:
      return [y, x];
    case 6:
      return [y, 1 - x];
    case 7:
      return [1 - y, 1 - x];
    case 8:
      return [1 - y, x];
    default:
      return [x, y];
  }
}

/** A shown box (shares) as the stored photo's: its left, right, top and bottom. */
export function storedBox(orientation: number, box: ShareBox): [number, number, number, number] {
  const a = storedPoint(orientation, box.x, box.y);
  const b = storedPoint(orientation, box.x + box.w, box.y + box.h);
  return [Math.min(a[0], b[0]), Math.max(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[1], b[1])];
}

/** The tiles (indices) a shown box covers, by their centres. */
function tilesOf(map: AlterationMap, box: ShareBox): number[] {
  const [x0, x1, y0, y1] = storedBox(map.orientation, box);
  const tiles: number[] = [];
  for (let r = 0; r < map.rows; r++) {
    const cy = ((r + 0.5) * ALTERATION_TILE) / map.height;
    if (cy < y0 || cy > y1) continue;
    for (let c = 0; c < map.cols; c++) {
      const cx = ((c + 0.5) * ALTERATION_TILE) / map.width;
      if (cx >= x0 && cx <= x1) tiles.push(r * map.cols + c);
    }
  }
  return tiles;
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
};

/**
 * Compares each named region (shown shares: the portrait; several boxes may share a name) with the rest of the document
 * (`document`, or the whole photo): noise unlike the rest's (a photo or text pasted from a cleaner
 * source); and the editor the metadata names. Regions with too few tiles to tell, or on a
 * document whose grain cannot be told from its pattern (NOISE_REST_MAX), are left out of `checked`.
 */
export function judgeAlteration(
  map: AlterationMap,
  regions: { name: string; box: ShareBox }[],
  document: ShareBox = { x: 0, y: 0, w: 1, h: 1 },
  fields?: { area: ShareBox; window: { w: number; h: number } },
): { checked: string[]; findings: AlterationFinding[] } {
  const checked = ['file'];
  const findings: AlterationFinding[] = [];
  if (map.editor) {
    findings.push({
      region: 'file',
      kind: 'editor',
      detail: `the file's metadata names an image editor (${map.editor})`,
    });
  }
  const documentTiles = tilesOf(map, document);
  for (const { name, box } of regions) {
    const inside = new Set(tilesOf(map, box));
    if (inside.size < 4) continue;
    const rest = documentTiles.filter((t) => !inside.has(t));
    if (rest.length < inside.size) continue;
    const tiles = [...inside];
    const here = median(tiles.map((t) => map.noise[t]!));
    const there = median(rest.map((t) => map.noise[t]!));
    if (!(there <= NOISE_REST_MAX)) continue;
    if (!checked.includes(name)) checked.push(name);
    if (
      findings.every((f) => f.region !== name) &&
      there - here >= NOISE_DIFFERENCE_MIN &&
      there >= NOISE_RATIO_MIN * Math.max(here, 0.1)
    ) {
      findings.push({
        region: name,
        kind: 'noise',
        detail: `its noise (${here.toFixed(1)}) is unlike the rest of the document's (${there.toFixed(1)})`,
      });
    }
  }
  const repainted = fields && findRepaintedField(map, fields.area, fields.window, document);
  if (repainted !== undefined && fields) {
    checked.push('fields');
    if (repainted) {
      findings.push({
        region: 'fields',
        kind: 'mismatch',
        detail: `a patch beside the portrait is ${repainted.cleaner.toFixed(0)} times cleaner than the rest of the document and its text sharper than the document's print`,
      });
    }
  }
  return { checked, findings };
}

/**
 * The printed portrait around the face the detector found (shown shares): the region alteration
 * detection compares with the rest of the document. The printed fields beside it are searched
 * apart (`findRepaintedField`): their blank paper is as clean as a pasted patch, so noise alone
 * cannot tell them.
 */
export const portraitRegion = (face: ShareBox): ShareBox => ({
  x: face.x - face.w * 0.25,
  y: face.y - face.h * 0.3,
  w: face.w * 1.5,
  h: face.h * 1.7,
});
