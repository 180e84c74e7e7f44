/**
 * Something covering part of the document (`documentPhoto.occludedDocument`): a finger, a hand or
 * an object between the camera and the card. Such a cover is near the lens, so it is out of focus
 * (smooth: no print, no edge inside it), and it is skin or a colour of its own (a toy, a pen, a
 * sleeve), unlike the paper or card the print stands on; it reaches in from outside the document
 * (the hand holding it, the object's body) and stops over it. One measure for the service and the
 * browser, pure arithmetic on the pixels, at COVER_LONG_SIDE in blocks of COVER_BLOCK px:
 * - print blocks: fine detail (mean |4-neighbour Laplacian| ≥ COVER_PRINT_DETAIL_MIN) in ink of
 *   little colour (mean max−min of RGB < COVER_PRINT_CHROMA_MAX); the document is the convex hull
 *   of the print's 8-connected groups of at least COVER_PRINT_GROUP_SHARE of the blocks, and its
 *   ground the mean colour of the brightest quarter of its print blocks;
 * - cover blocks: smooth (detail ≤ COVER_SMOOTH_DETAIL_MAX), coloured (chroma ≥ COVER_CHROMA_MIN)
 *   or skin (COVER_SKIN_SHARE_MIN of the pixels in the YCbCr skin box), and far from the ground's
 *   colour (COVER_GROUND_DISTANCE_MIN: a cream or tinted paper is the document's own ground);
 * - a cover is a 4-connected group of cover blocks with at least COVER_INSIDE_MIN blocks inside
 *   the document's hull and at least COVER_OUTSIDE_SHARE of the photo's blocks outside it: an
 *   object that comes from beyond the document and lies over it. A table or a chair around a card
 *   stays outside the hull of its print; a portrait or a coloured emblem of the document lies
 *   inside it with nothing outside.
 * Judged only where the outline's look reads lines of print (COVER_TEXT_MIN_CHARS).
 * On the eval set of bench:accuracy (npm run bench:accuracy -- DIR occlusion): 5 of the 7 covered
 * copies (missed: a card held up by its corner, the fingers over it not told from the print; a
 * newspaper frame where the outline reads no lines of print under a yellow blur), none of the 37
 * genuine specimens, none of the 12 camera photos of paper copies (cut-out cards on red, yellow,
 * wooden and green grounds), none of the project's samples or drawn non-documents (a room, a
 * landscape: no print). On 51 further frames of the same collection, of seven other document
 * types, looked at only after the rule was set (npm run bench:accuracy -- DIR occlusion on a folder
 * laid out the same way): 10 of 19 covered copies, and 3 of 32 uncovered copies called covered
 * (pictures printed in the newspaper or the painting under the copy: smooth, coloured, in the
 * document's plane; the rule has no measure of focus to tell them from a cover near the lens).
 * It does not see a cover as sharp and grey as the print (a black pen lying
 * on the card), a cover wholly inside the document (a sticker), nor a finger over a document that
 * fills the whole photo (nothing of it lies beyond).
 */
import { boxShrinkTo, type PixelImage } from '@/checks/image/image-metrics';
import { TEXT_MIN_CHARS } from './document-outline';

/** The measure's scale: the service's decode and the browser's frame are box-filtered to it. */
export const COVER_LONG_SIDE = 256;
/** Side of a block (px at COVER_LONG_SIDE). */
export const COVER_BLOCK = 8;
/** Mean |4-neighbour Laplacian| from which a block holds print (or an edge). */
export const COVER_PRINT_DETAIL_MIN = 10;
/** Mean max−min of RGB under which a detailed block is ink on paper (not wood grain, not a toy). */
export const COVER_PRINT_CHROMA_MAX = 60;
/** A group of print blocks that counts as the document's (share of all blocks). */
export const COVER_PRINT_GROUP_SHARE = 0.01;
/** Detail at most for a block out of focus (a finger or an object near the lens). */
export const COVER_SMOOTH_DETAIL_MAX = 8;
/** Colour a smooth block needs to be an object's (max−min of RGB). */
export const COVER_CHROMA_MIN = 60;
/** Or: share of its pixels in the skin box (YCbCr). */
export const COVER_SKIN_SHARE_MIN = 0.4;
/** Euclidean RGB distance of a cover block's mean colour from the document's ground. */
export const COVER_GROUND_DISTANCE_MIN = 48;
/** Blocks of one cover inside the document's hull (2 blocks: ~6 % of the long side deep). */
export const COVER_INSIDE_MIN = 2;
/**
 * Characters in lines of print (the outline's `textChars`) from which a cover is judged: half of a
 * document's TEXT_MIN_CHARS, as a cover hides some of it. Without them the photo shows no document
 * to be covered (a room, a landscape: its sofa or its sky is no finger), and `noDocument` speaks.
 */
export const COVER_TEXT_MIN_CHARS = TEXT_MIN_CHARS / 2;
/** Blocks of the same cover outside the hull, as a share of all blocks: the object's body. */
export const COVER_OUTSIDE_SHARE = 0.03;

export interface CoverLook {
  /** Blocks measured. */
  blocks: number;
  /** Blocks inside the hull of the document's print (0: no print found, nothing judged). */
  documentBlocks: number;
  /** The largest cover found over the document: its blocks inside and outside the hull. */
  inside: number;
  outside: number;
}

type Pt = [number, number];

/** Convex hull (monotone chain), counter-clockwise in image coordinates' sense of the cross. */
function convexHull(points: Pt[]): Pt[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (sorted.length < 3) return sorted;
  const cross = (o: Pt, a: Pt, b: Pt) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const chain = (list: Pt[]) => {
    const out: Pt[] = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0) out.pop();
      out.push(p);
    }
    return out.slice(0, -1);
  };
  return [...chain(sorted), ...chain([...sorted].reverse())];
}

/** Whether a point lies inside or on a convex hull of at least three corners. */
function inHull(p: Pt, hull: Pt[]): boolean {
  if (hull.length < 3) return false;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    if ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) < 0) return false;
  }
  return true;
}

/** Whether an RGB pixel falls in the usual YCbCr skin box (light to dark skin, warm hue). */
function isSkin(r: number, g: number, b: number): boolean {
  const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
  const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  return cb >= 77 && cb <= 127 && cr >= 138 && cr <= 173 && r > g && r > b && r - Math.min(g, b) > 20;
}

/** Groups of blocks for which `member` holds (8- or 4-connected), as lists of block indices. */
function groups(member: (k: number) => boolean, bw: number, bh: number, diagonal: boolean): number[][] {
  const seen = new Uint8Array(bw * bh);
  const found: number[][] = [];
  for (let start = 0; start < bw * bh; start++) {
    if (seen[start] || !member(start)) continue;
    const group: number[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const k = stack.pop()!;
      group.push(k);
      const bx = k % bw;
      const by = (k - bx) / bw;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if ((!dx && !dy) || (!diagonal && dx && dy)) continue;
          const nx = bx + dx;
          const ny = by + dy;
          if (nx < 0 || ny < 0 || nx >= bw || ny >= bh) continue;
          const n = ny * bw + nx;
          if (!seen[n] && member(n)) {
            seen[n] = 1;
            stack.push(n);
          }
        }
      }
    }
    found.push(group);
  }
  return found;
}

/** The look at a decode (RGB or RGBA, any size; a grey image shows no coloured or skin cover). */
export function lookForCover(image: PixelImage): CoverLook {
  const small = boxShrinkTo(image, COVER_LONG_SIDE);
  const { width: w, height: h, channels, data } = small;
  const bw = Math.floor(w / COVER_BLOCK);
  const bh = Math.floor(h / COVER_BLOCK);
  const n = bw * bh;
  const none: CoverLook = { blocks: n, documentBlocks: 0, inside: 0, outside: 0 };
  if (channels < 3 || n === 0) return none;
  const grey = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    grey[i] = 0.299 * data[i * channels]! + 0.587 * data[i * channels + 1]! + 0.114 * data[i * channels + 2]!;
  }
  const detail = new Float32Array(n);
  const chroma = new Float32Array(n);
  const skin = new Float32Array(n);
  const colour = new Float32Array(n * 3);
  const area = COVER_BLOCK * COVER_BLOCK;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let laplacian = 0;
      let spread = 0;
      let skinCount = 0;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = by * COVER_BLOCK; y < (by + 1) * COVER_BLOCK; y++) {
        const row = y * w;
        const up = Math.max(0, y - 1) * w;
        const down = Math.min(h - 1, y + 1) * w;
        for (let x = bx * COVER_BLOCK; x < (bx + 1) * COVER_BLOCK; x++) {
          const i = row + x;
          const left = grey[row + Math.max(0, x - 1)]!;
          const right = grey[row + Math.min(w - 1, x + 1)]!;
          laplacian += Math.abs(4 * grey[i]! - left - right - grey[up + x]! - grey[down + x]!);
          const pr = data[i * channels]!;
          const pg = data[i * channels + 1]!;
          const pb = data[i * channels + 2]!;
          spread += Math.max(pr, pg, pb) - Math.min(pr, pg, pb);
          if (isSkin(pr, pg, pb)) skinCount++;
          r += pr;
          g += pg;
          b += pb;
        }
      }
      const k = by * bw + bx;
      detail[k] = laplacian / area;
      chroma[k] = spread / area;
      skin[k] = skinCount / area;
      colour[k * 3] = r / area;
      colour[k * 3 + 1] = g / area;
      colour[k * 3 + 2] = b / area;
    }
  }
  const isPrint = (k: number) => detail[k]! >= COVER_PRINT_DETAIL_MIN && chroma[k]! < COVER_PRINT_CHROMA_MAX;
  const prints = groups(isPrint, bw, bh, true).filter((g) => g.length >= COVER_PRINT_GROUP_SHARE * n);
  const printBlocks = prints.flat();
  const hull = convexHull(printBlocks.map((k) => [k % bw, Math.floor(k / bw)] as Pt));
  const inside = (k: number) => inHull([k % bw, Math.floor(k / bw)], hull);
  let documentBlocks = 0;
  for (let k = 0; k < n; k++) if (inside(k)) documentBlocks++;
  if (documentBlocks === 0) return none;

  // The ground the print stands on: the brightest quarter of the print blocks.
  const brightness = (k: number) => colour[k * 3]! + colour[k * 3 + 1]! + colour[k * 3 + 2]!;
  const brightest = [...printBlocks].sort((a, b) => brightness(b) - brightness(a));
  const top = brightest.slice(0, Math.max(1, Math.ceil(brightest.length / 4)));
  const ground = [0, 1, 2].map((c) => top.reduce((sum, k) => sum + colour[k * 3 + c]!, 0) / top.length);
  const isCover = (k: number) =>
    !isPrint(k) &&
    detail[k]! <= COVER_SMOOTH_DETAIL_MAX &&
    (chroma[k]! >= COVER_CHROMA_MIN || skin[k]! >= COVER_SKIN_SHARE_MIN) &&
    Math.hypot(
      colour[k * 3]! - ground[0]!,
      colour[k * 3 + 1]! - ground[1]!,
      colour[k * 3 + 2]! - ground[2]!,
    ) >= COVER_GROUND_DISTANCE_MIN;

  let best = { inside: 0, outside: 0 };
  for (const group of groups(isCover, bw, bh, false)) {
    const over = group.filter(inside).length;
    const seen = { inside: over, outside: group.length - over };
    const covers = (c: { inside: number; outside: number }) =>
      c.inside >= COVER_INSIDE_MIN && c.outside >= COVER_OUTSIDE_SHARE * n;
    // A cover that decides first, then the one deepest over the document.
    if ((covers(seen) && !covers(best)) || (covers(seen) === covers(best) && seen.inside > best.inside))
      best = seen;
  }
  return { blocks: n, documentBlocks, ...best };
}

/**
 * Whether a look shows an object from beyond the document lying over it, in a photo whose print
 * (`textChars` of the outline's look) shows a document.
 */
export const isCovered = (look: CoverLook, textChars: number) =>
  textChars >= COVER_TEXT_MIN_CHARS &&
  look.inside >= COVER_INSIDE_MIN &&
  look.outside >= COVER_OUTSIDE_SHARE * look.blocks;
