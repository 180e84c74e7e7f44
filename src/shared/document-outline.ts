/**
 * Finding the document in a photo: its four corners, or the evidence that the photo is a scan of
 * one filling the frame. One rule set for the service (src/service/checks/document-finder.ts) and
 * the browser's document worker: the OpenCV build (`opencv-wasm`) is handed in by the caller, so
 * both sides run the very same calls and thresholds on the same box-filtered grey pixels.
 */

import { boxResize, toGray, type PixelImage } from './image-metrics';

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
 * Text lines (dark strokes closed into a horizontal run, 3–28 px high at 512) that make a photo
 * with no visible edge a document filling the frame (a scan). On ../shared/eval: documents 0–30
 * (median 15), photos of people at most 3.
 */
export const FULL_FRAME_MIN_TEXT_LINES = 4;

export type Point = { x: number; y: number };

export interface OutlineLook {
  width: number;
  height: number;
  /** The largest convex four-sided contour, corners clockwise from top-left; null when none. */
  quad: Point[] | null;
  textLines: number;
}

export type OutlineVerdict =
  /** Four corners inside the photo, off its edges: the document with a background around it. */
  | { kind: 'framed'; quad: Point[]; aspect: number }
  /** No edge of its own, but text everywhere: a scan or a photo cropped to the document. */
  | { kind: 'fullFrame' }
  /** A document-like quad that runs into the photo's edge on one or two corners. */
  | { kind: 'cropped'; quad: Point[] }
  | { kind: 'none' };

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

function polygonArea(quad: Point[]): number {
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

/** The rules on a look: framed, filling the frame, cropped, or no document at all. */
export function judgeOutline(look: OutlineLook): OutlineVerdict {
  const { width, height, quad, textLines } = look;
  const textual = textLines >= FULL_FRAME_MIN_TEXT_LINES;
  if (quad) {
    const share = polygonArea(quad) / (width * height);
    const aspect = quadAspect(quad);
    const margin = BORDER_MARGIN_SHARE * Math.min(width, height);
    const touching = quad.filter(
      (p) => p.x <= margin || p.y <= margin || p.x >= width - 1 - margin || p.y >= height - 1 - margin,
    ).length;
    const shaped = share >= QUAD_MIN_AREA_SHARE && aspect >= QUAD_ASPECT_MIN && aspect <= QUAD_ASPECT_MAX;
    if (shaped && touching === 0) return { kind: 'framed', quad, aspect };
    // Three or four corners on the edges is the photo's own frame (a scan); one or two is a card
    // running out of the picture, when it has a document's text.
    if (shaped && touching <= 2 && share < 0.9 && textual) return { kind: 'cropped', quad };
  }
  return textual ? { kind: 'fullFrame' } : { kind: 'none' };
}

/**
 * The part of OpenCV's JavaScript API the look uses (opencv-wasm and OpenCV.js share it). Typed
 * loosely on purpose: the package's own typings describe the whole library.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type OpenCv = any;

/**
 * Looks at grey pixels (OUTLINE_LONG_SIDE long side): edges (Canny) closed by a dilation, the
 * largest contour whose convex hull simplifies to four corners, and the count of text lines
 * (black-hat strokes closed into horizontal runs). Every Mat is freed before it returns.
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
    let best: { area: number; points: Point[] } | null = null;
    for (let i = 0; i < contours.size(); i++) {
      const contour = keep(contours.get(i));
      if (cv.contourArea(contour) < minArea) continue;
      const hull = keep(new cv.Mat());
      cv.convexHull(contour, hull);
      const corners = keep(new cv.Mat());
      cv.approxPolyDP(hull, corners, 0.03 * cv.arcLength(hull, true), true);
      const area = cv.contourArea(hull);
      if (corners.rows === 4 && (!best || area > best.area)) {
        const xy = corners.data32S as Int32Array;
        best = { area, points: [0, 1, 2, 3].map((k) => ({ x: xy[2 * k]!, y: xy[2 * k + 1]! })) };
      }
    }

    const strokes = keep(new cv.Mat());
    cv.morphologyEx(
      blur,
      strokes,
      cv.MORPH_BLACKHAT,
      keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(15, 7))),
    );
    cv.threshold(strokes, strokes, 0, 255, cv.THRESH_BINARY | cv.THRESH_OTSU);
    cv.morphologyEx(
      strokes,
      strokes,
      cv.MORPH_CLOSE,
      keep(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(11, 3))),
    );
    const runs = keep(new cv.MatVector());
    cv.findContours(strokes, runs, keep(new cv.Mat()), cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    let textLines = 0;
    for (let i = 0; i < runs.size(); i++) {
      const run = keep(runs.get(i));
      const box = cv.boundingRect(run);
      const fill = cv.contourArea(run) / (box.width * box.height);
      if (
        box.width >= 4 * box.height &&
        box.height >= 3 &&
        box.height <= 28 &&
        box.width >= 20 &&
        fill > 0.35
      )
        textLines++;
    }
    return { width, height, quad: best ? orderCorners(best.points) : null, textLines };
  } finally {
    for (const m of mats) m.delete();
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * The verdict on a decode (RGBA or RGB, any size): box-filtered to OUTLINE_LONG_SIDE, grey, looked
 * at and judged. `scale` maps the verdict's corners back to the decode (decode px per look px).
 */
export function outlineOf(cv: OpenCv, image: PixelImage): { verdict: OutlineVerdict; scale: number } {
  const shrink = OUTLINE_LONG_SIDE / Math.max(image.width, image.height);
  const small =
    shrink < 1
      ? boxResize(
          image,
          Math.max(1, Math.round(image.width * shrink)),
          Math.max(1, Math.round(image.height * shrink)),
        )
      : image;
  const grey = toGray(small.data, small.channels);
  return {
    verdict: judgeOutline(lookForOutline(cv, grey, small.width, small.height)),
    scale: image.width / small.width,
  };
}
