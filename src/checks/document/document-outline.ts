/**
 * Finding the document in a photo: its four corners, or the evidence that the photo is a scan of
 * one filling the frame. One rule set for the service (src/checks/document/node/document-finder.ts) and
 * the browser's document worker: the OpenCV build (`opencv-wasm`) is handed in by the caller, so
 * both sides run the very same calls and thresholds on the same box-filtered grey pixels.
 */

import { boxShrinkTo, toGray, type PixelImage } from '@/checks/image/image-metrics';

/** The look runs on grey pixels with this long side (a camera frame or a decode box-filtered to it). */
export const OUTLINE_LONG_SIDE = 512;
/** A quadrilateral smaller than this share of the photo is not the document (a window, a label). */
export const QUAD_MIN_AREA_SHARE = 0.2;
/** Long side / short side of a found quad that can be a document (ID-1 1.59, ID-3 1.42, A4 1.41). */
export const QUAD_ASPECT_MIN = 1.2;
export const QUAD_ASPECT_MAX = 1.9;
/** A corner this close to the photo's edge (share of the short side) touches it. */
export const BORDER_MARGIN_SHARE = 0.006;
/**
 * Printed text: characters (dark components 4–40 px high at OUTLINE_LONG_SIDE, narrower than twice
 * their height, neither hairlines nor solid blocks) chained along a line, each next to a neighbour
 * of like height within 1.2 heights; a chain of TEXT_CHAIN_MIN_CHARS or more is a text line, read
 * across and, for a page photographed on its side, down. A document shows TEXT_MIN_CHARS or more
 * characters in lines. On the eval set of bench:accuracy: the 36 specimen pages 45–204 (median ~110), the 50 photos
 * of people at most 12 (hair, eyes, a printed shirt).
 */
export const TEXT_CHAIN_MIN_CHARS = 5;
export const TEXT_MIN_CHARS = 24;
/**
 * A card-shaped quad this small (share of the photo) still counts as a card held in view or lying
 * far from the lens (`cards` of a look): the selfie's rule looks for its portrait on it.
 */
export const CARD_MIN_AREA_SHARE = 0.01;
/** Most card-shaped quads a look keeps (the largest). */
const CARDS_KEPT = 8;
/** Opposite edges of a document's quad, even in perspective, are within this ratio of each other. */
export const QUAD_EDGE_RATIO_MAX = 1.6;

export type Point = { x: number; y: number };

export interface OutlineLook {
  width: number;
  height: number;
  /** The largest convex four-sided contour, corners clockwise from top-left; null when none. */
  quad: Point[] | null;
  /** Text lines across or down the photo, whichever has more characters in lines. */
  textLines: number;
  /** Characters in those lines. */
  textChars: number;
  /**
   * Card-shaped quads (aspect and opposite edges of a document's) off the photo's edges, of any
   * size from CARD_MIN_AREA_SHARE, largest first, corners ordered: a small card in view that the
   * verdict, which needs QUAD_MIN_AREA_SHARE, does not frame.
   */
  cards?: Point[][];
}

export type OutlineVerdict =
  /** Four corners inside the photo, off its edges: the document with a background around it. */
  | { kind: 'framed'; quad: Point[]; aspect: number }
  /** No edge of its own, but lines of print: a scan or a photo cropped to the document. */
  | { kind: 'fullFrame' }
  /** A document-like quad that runs into the photo's edge on one or two corners. */
  | { kind: 'cropped'; quad: Point[] }
  | { kind: 'none' };

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

export function polygonArea(quad: Point[]): number {
  let sum = 0;
  for (let i = 0; i < quad.length; i++) {
    const a = quad[i]!;
    const b = quad[(i + 1) % quad.length]!;
    sum += a.x * b.y - b.x * a.y;
  }
  return Math.abs(sum) / 2;
}

/** Corners ordered top-left, top-right, bottom-right, bottom-left (by x+y and y−x). */
export function orderCorners(points: Point[]): Point[] {
  const bySum = [...points].sort((a, b) => a.x + a.y - (b.x + b.y));
  const byDiff = [...points].sort((a, b) => a.y - a.x - (b.y - b.x));
  return [bySum[0]!, byDiff[0]!, bySum[3]!, byDiff[3]!];
}

/** Whether a point lies inside a convex quadrilateral (corners in order, either way round). */
export function insideQuad(point: Point, quad: Point[]): boolean {
  let sign = 0;
  for (let i = 0; i < quad.length; i++) {
    const a = quad[i]!;
    const b = quad[(i + 1) % quad.length]!;
    const cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** Width and height of the straightened document: the longer of each pair of opposite edges. */
export function quadSize(quad: Point[]): { width: number; height: number } {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  return {
    width: Math.max(dist(tl, tr), dist(bl, br)),
    height: Math.max(dist(tl, bl), dist(tr, br)),
  };
}

export function quadAspect(quad: Point[]): number {
  const { width, height } = quadSize(quad);
  return Math.max(width, height) / Math.max(1, Math.min(width, height));
}

/** Whether opposite edges of a quad are alike (a rectangle in perspective, not a sliver or a kite). */
function rectangular(quad: Point[]): boolean {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const alike = (p: number, q: number) => Math.max(p, q) / Math.max(1, Math.min(p, q)) <= QUAD_EDGE_RATIO_MAX;
  return alike(dist(tl, tr), dist(bl, br)) && alike(dist(tl, bl), dist(tr, br));
}

/**
 * The rules on a look: framed, filling the frame, cropped, or no document at all. Every verdict but
 * `none` needs print (TEXT_MIN_CHARS): a door, a window or a picture frame behind a face is a
 * quadrilateral too, and a card shows text.
 */
export function judgeOutline(look: OutlineLook): OutlineVerdict {
  const { width, height, quad } = look;
  if (look.textChars < TEXT_MIN_CHARS) return { kind: 'none' };
  if (quad) {
    const share = polygonArea(quad) / (width * height);
    const aspect = quadAspect(quad);
    const margin = BORDER_MARGIN_SHARE * Math.min(width, height);
    const touching = quad.filter(
      (p) => p.x <= margin || p.y <= margin || p.x >= width - 1 - margin || p.y >= height - 1 - margin,
    ).length;
    const shaped =
      share >= QUAD_MIN_AREA_SHARE &&
      aspect >= QUAD_ASPECT_MIN &&
      aspect <= QUAD_ASPECT_MAX &&
      rectangular(quad);
    if (shaped && touching === 0) return { kind: 'framed', quad, aspect };
    // Three or four corners on the edges is the photo's own frame (a scan); one or two is a card
    // running out of the picture.
    if (shaped && touching <= 2 && share < 0.9) return { kind: 'cropped', quad };
  }
  return { kind: 'fullFrame' };
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Characters chained into lines along x (boxes sorted by x, each linked to the nearest unlinked
 * box to its right of like height and centre line): the lines of TEXT_CHAIN_MIN_CHARS or more.
 */
export function textChains(boxes: Box[]): { lines: number; chars: number } {
  const sorted = [...boxes].sort((a, b) => a.x - b.x);
  const next = new Map<number, number>();
  const linked = new Set<number>();
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    const centre = a.y + a.h / 2;
    let best = -1;
    let bestGap = Infinity;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j]!;
      if (b.x - (a.x + a.w) > 3 * a.h) break;
      const gap = b.x - (a.x + a.w);
      if (gap > 1.2 * Math.max(a.h, b.h) || gap < -0.3 * a.w) continue;
      if (Math.abs(b.y + b.h / 2 - centre) > 0.35 * a.h) continue;
      if (Math.max(a.h, b.h) / Math.min(a.h, b.h) > 1.6) continue;
      if (gap < bestGap && !linked.has(j)) {
        bestGap = gap;
        best = j;
      }
    }
    if (best >= 0) {
      next.set(i, best);
      linked.add(best);
    }
  }
  let lines = 0;
  let chars = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (linked.has(i)) continue;
    let n = 1;
    for (let k = i; next.has(k); k = next.get(k)!) n++;
    if (n >= TEXT_CHAIN_MIN_CHARS) {
      lines++;
      chars += n;
    }
  }
  return { lines, chars };
}

/**
 * The part of OpenCV's JavaScript API the look uses (opencv-wasm and OpenCV.js share it). Typed
 * loosely on purpose: the package's own typings describe the whole library.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type OpenCv = any;

/**
 * Looks at grey pixels (OUTLINE_LONG_SIDE long side): edges (Canny) closed by a dilation, the
 * largest contour whose convex hull simplifies to four corners, and the print (characters chained
 * into lines, TEXT_MIN_CHARS). Every Mat is freed before it returns.
 */
export function lookForOutline(cv: OpenCv, grey: Uint8Array, width: number, height: number): OutlineLook {
  const mats: { delete(): void }[] = [];
  const keep = <T extends { delete(): void }>(m: T): T => (mats.push(m), m);
  try {
    const src = keep(cv.matFromArray(height, width, cv.CV_8UC1, grey));
    const blur = keep(new cv.Mat());
    cv.GaussianBlur(src, blur, new cv.Size(5, 5), 0);
    const edges = keep(new cv.Mat());
    cv.Canny(blur, edges, 40, 120);
    cv.dilate(edges, edges, keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(3, 3))));
    const contours = keep(new cv.MatVector());
    cv.findContours(edges, contours, keep(new cv.Mat()), cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
    const minArea = QUAD_MIN_AREA_SHARE * width * height;
    const minCardArea = CARD_MIN_AREA_SHARE * width * height;
    const margin = BORDER_MARGIN_SHARE * Math.min(width, height);
    let best: { area: number; points: Point[] } | null = null;
    const cards: { area: number; points: Point[] }[] = [];
    for (let i = 0; i < contours.size(); i++) {
      const contour = keep(contours.get(i));
      // The hull's area, not the contour's: a card running out of the photo leaves an open edge
      // (three sides), whose contour is a thin line around it.
      const box = cv.boundingRect(contour);
      if (box.width * box.height < minCardArea) continue;
      const hull = keep(new cv.Mat());
      cv.convexHull(contour, hull);
      const area = cv.contourArea(hull);
      if (area < minCardArea) continue;
      const corners = keep(new cv.Mat());
      cv.approxPolyDP(hull, corners, 0.03 * cv.arcLength(hull, true), true);
      if (corners.rows !== 4) continue;
      const xy = corners.data32S as Int32Array;
      const points = [0, 1, 2, 3].map((k) => ({ x: xy[2 * k]!, y: xy[2 * k + 1]! }));
      if (area >= minArea && (!best || area > best.area)) best = { area, points };
      // A card in view lies off the photo's edges (a quad running into them is the picture's own
      // frame, a wall, a door).
      const ordered = orderCorners(points);
      const aspect = quadAspect(ordered);
      const inside = ordered.every(
        (p) => p.x > margin && p.y > margin && p.x < width - 1 - margin && p.y < height - 1 - margin,
      );
      if (inside && aspect >= QUAD_ASPECT_MIN && aspect <= QUAD_ASPECT_MAX && rectangular(ordered))
        cards.push({ area, points: ordered });
    }
    cards.sort((a, b) => b.area - a.area);

    // Dark print on a lighter ground, against its neighbourhood (a mean over 21 px), as components.
    const ink = keep(new cv.Mat());
    cv.adaptiveThreshold(src, ink, 255, cv.ADAPTIVE_THRESH_MEAN_C, cv.THRESH_BINARY_INV, 21, 12);
    const stats = keep(new cv.Mat());
    const count = cv.connectedComponentsWithStats(
      ink,
      keep(new cv.Mat()),
      stats,
      keep(new cv.Mat()),
      8,
      cv.CV_32S,
    );
    const s = stats.data32S as Int32Array;
    const glyphs: Box[] = [];
    for (let i = 1; i < count; i++) {
      const [x, y, w, h, area] = [s[i * 5]!, s[i * 5 + 1]!, s[i * 5 + 2]!, s[i * 5 + 3]!, s[i * 5 + 4]!];
      if (h < 4 || h > 40 || w > 2 * h + 2) continue;
      if (area < 0.12 * w * h || area > 0.95 * w * h) continue;
      glyphs.push({ x, y, w, h });
    }
    const across = textChains(glyphs);
    const down = textChains(glyphs.map((g) => ({ x: g.y, y: g.x, w: g.h, h: g.w })));
    const text = down.chars > across.chars ? down : across;
    return {
      width,
      height,
      quad: best ? orderCorners(best.points) : null,
      textLines: text.lines,
      textChars: text.chars,
      cards: cards.slice(0, CARDS_KEPT).map((c) => c.points),
    };
  } finally {
    for (const m of mats) m.delete();
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * The verdict on a decode (RGBA or RGB, any size): box-filtered to OUTLINE_LONG_SIDE, grey, looked
 * at and judged. `scale` maps the verdict's corners back to the decode (decode px per look px).
 */
export function outlineOf(
  cv: OpenCv,
  image: PixelImage,
): { verdict: OutlineVerdict; scale: number; textChars: number; cards: Point[][] } {
  const small = boxShrinkTo(image, OUTLINE_LONG_SIDE);
  const grey = toGray(small.data, small.channels);
  const look = lookForOutline(cv, grey, small.width, small.height);
  // The card-shaped quads as shares of the photo's sides (any decode size), as a framed quad is kept.
  const cards = (look.cards ?? []).map((quad) =>
    quad.map((p) => ({ x: p.x / small.width, y: p.y / small.height })),
  );
  return { verdict: judgeOutline(look), scale: image.width / small.width, textChars: look.textChars, cards };
}

/** RGBA pixels, row by row (a decode, or a straightened document). */
export interface RgbaPixels {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * The size a framed document is straightened to: its own (the longer of each pair of opposite
 * edges), at most 1.2× the photo's sides (a quad in steep perspective would ask for more pixels
 * than the photo holds).
 */
export function straightenedSize(quad: Point[], image: { width: number; height: number }) {
  const { width, height } = quadSize(quad);
  return {
    width: Math.round(Math.min(width, image.width * 1.2)),
    height: Math.round(Math.min(height, image.height * 1.2)),
  };
}

/**
 * The document straightened (perspective warp of its quad, in the image's pixels, onto a
 * `width`×`height` rectangle): the portrait, the barcode and the zone are read on it, in the
 * service and in the browser alike. A copy out of the wasm heap, which the next call may reuse.
 */
export function straighten(cv: OpenCv, image: RgbaPixels, quad: Point[], width: number, height: number) {
  const src = cv.matFromArray(image.height, image.width, cv.CV_8UC4, image.data);
  const from = cv.matFromArray(
    4,
    1,
    cv.CV_32FC2,
    quad.flatMap((p) => [p.x, p.y]),
  );
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, width, 0, width, height, 0, height]);
  const matrix = cv.getPerspectiveTransform(from, to);
  const out = new cv.Mat();
  try {
    cv.warpPerspective(src, out, matrix, new cv.Size(width, height), cv.INTER_LINEAR, cv.BORDER_REPLICATE);
    return { data: new Uint8Array(out.data as Uint8Array), width, height };
  } finally {
    for (const m of [src, from, to, matrix, out]) m.delete();
  }
}

/** Corners in the image's pixels as shares of its width and height (rounded to 1e-4). */
export const quadShares = (quad: Point[], image: { width: number; height: number }): Point[] =>
  quad.map((p) => ({
    x: Math.round((p.x / image.width) * 1e4) / 1e4,
    y: Math.round((p.y / image.height) * 1e4) / 1e4,
  }));

/**
 * Long side / short side of a framed document that tells a card from a passport page: ID-1 cards
 * are 85.6×54 mm (1.59), a passport's data page ID-3 125×88 mm (1.42). A photo at an angle
 * shortens one side, so only a clear reading decides: framed dev-set cards 1.66, pages 1.40–1.54
 * (and one outline 1.77 of a page's fold, which its MRZ overrules: see `shapeMismatch`).
 */
export const CARD_ASPECT_MIN = 1.55;
export const PAGE_ASPECT_MAX = 1.46;

export type DocumentShape = 'card' | 'page';

export function documentShape(aspect: number | undefined): DocumentShape | null {
  if (aspect === undefined) return null;
  if (aspect >= CARD_ASPECT_MIN) return 'card';
  if (aspect <= PAGE_ASPECT_MAX) return 'page';
  return null;
}

/** The shape a claimed type has; null where it does not decide (proof of residency, other types). */
export function claimedShape(type: string): DocumentShape | null {
  if (type === 'passport') return 'page';
  if (type === 'national-id' || type === 'driving-license') return 'card';
  return null;
}

/**
 * Whether the framed outline's shape contradicts the claimed type. Only when nothing read from the
 * document (a valid MRZ or barcode, which name the type) decides.
 */
export function shapeMismatch(aspect: number | undefined, type: string): boolean {
  const seen = documentShape(aspect);
  const claimed = claimedShape(type);
  return seen !== null && claimed !== null && seen !== claimed;
}

/**
 * What an identity document's side shows of its own, beyond an outline and print (which a
 * screenshot of text, a spreadsheet or a letter on a table show too): its holder's portrait, its
 * machine-readable zone, its PDF417 barcode. Each is `null` where it was not looked for.
 */
export interface SideFeatures {
  /**
   * A face of a portrait's size (FACE_MIN_SIDE_SHARE of the photo or of the straightened document)
   * inside the document: where its outline is found, a face beside it (the person holding a sheet
   * up to the camera) is no portrait of it.
   */
  portrait: boolean | null;
  /** A machine-readable zone read as one (`zoneShaped`), whether its check digits hold or not. */
  zone: boolean | null;
  /** A PDF417 symbol read. */
  barcode: boolean | null;
}

/**
 * Whether lines read from a band are a machine-readable zone's, check digits aside: two or three
 * lines of one ICAO 9303 format (TD1 3×30, TD2 and MRV-B 2×36, TD3 and MRV-A 2×44). The OCR forced
 * onto the zone's alphabet reads a band of prose as lines too, of any length.
 */
export function zoneShaped(lines: readonly string[]): boolean {
  const length = lines[0]?.length;
  if (!lines.every((line) => line.length === length)) return false;
  return lines.length === 3 ? length === 30 : lines.length === 2 && (length === 36 || length === 44);
}

/** The identity documents whose front shows a portrait, a zone or a barcode (ICAO 9303, AAMVA). */
export const IDENTITY_TYPES: readonly string[] = ['passport', 'national-id', 'driving-license'];

/**
 * Whether a side that the outline took for a document (`framed`, `fullFrame`) is an identity
 * document's front: a passport's data page, an ID card's or a licence's front shows its holder's
 * portrait, and some also a zone (passports, TD2 cards) or a barcode (newer Argentine DNIs). A
 * page of print with none of them — a screenshot, a chat, a spreadsheet, a letter on a table, whose
 * A4 outline is a passport page's 1.41 — is no document: `no`. `unknown` where a feature that was
 * not looked for could still decide (the browser, which does not load the face models on a
 * document step, leaves the word to the service then). Other types (proof of residency: a bill is
 * a page of print) and backs are judged by the outline alone.
 */
export function identityFront(features: SideFeatures): 'yes' | 'no' | 'unknown' {
  const seen = [features.portrait, features.zone, features.barcode];
  if (seen.some((f) => f === true)) return 'yes';
  return seen.every((f) => f === false) ? 'no' : 'unknown';
}
