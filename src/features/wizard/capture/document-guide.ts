import { quadSize, type OutlineVerdict, type Point } from '@/checks/document/document-outline';
import { hasGlare, isBlurry } from '@/checks/image/image-metrics';

/**
 * What the document camera's live look says, from the document worker's look at a frame: the
 * shared outline rules (`@/checks/document/document-outline`), the shared cover rule
 * (`@/checks/document/occlusion`) and the shared blur and glare metrics
 * (`@/checks/image/image-metrics`), so the advice matches what the photo check will say of the shot.
 */
export type DocumentAdvice =
  | 'searching'
  | 'covered'
  | 'noDocument'
  | 'moveCloser'
  | 'fitWhole'
  | 'glare'
  | 'blurry'
  /** Large enough, sharp, no glare, but the code the side must show (barcode, zone) is not read. */
  | 'codeNotReadable'
  /** Large enough, sharp, no glare; the side's code is being read (nothing is taken before it is). */
  | 'codeReading'
  /** Good, and the side's code (where it must show one) is read: the photo takes itself. */
  | 'holdStill'
  | 'taken';

/**
 * What the code readers (`use-camera-guide.ts`: barcode, zone) last said of the side: `none` where
 * the side must show no code.
 */
export type CodeState = 'none' | 'reading' | 'notReadable' | 'readable';

/** The worker's look at one live frame (at most OUTLINE_LONG_SIDE long). */
export interface LiveLook {
  verdict: OutlineVerdict;
  width: number;
  height: number;
  /** Laplacian variance of the whole frame (the photo check's blur metric). */
  blurScore: number;
  /** Blown-out share inside the found document's bounds (0 when none is found). */
  glareShare: number;
  /**
   * Something reaches over the document from beyond it (a finger, an object: `isCovered` of
   * `@/checks/document/occlusion`, at the service's scale); absent where it was not looked for.
   */
  covered?: boolean;
  /**
   * Card-shaped quads in view of any size, largest first, as shares of the frame's sides: a
   * document too far away for the outline to frame it (it needs QUAD_MIN_AREA_SHARE of the frame).
   */
  cards?: Point[][];
}

/**
 * The preview shows the camera's frame as `object-fit: cover` in a box of this aspect
 * (`.camera-frame` in capture.css): the central part of the frame the person sees.
 */
export const PREVIEW_ASPECT = 4 / 3;
/** The dashed guide's width, as a share of the preview's (`.camera-guide-document`). */
export const GUIDE_WIDTH_SHARE = 0.86;
/**
 * A document whose long side is less than this share of the dashed guide's width is too far:
 * "move closer", whatever the code readers say. From this size on its code (zone, barcode) should
 * be readable at a phone camera's resolution, so only then is the code's own message given; and
 * the photo takes itself as soon as the code is read (or at once, where the side shows none).
 * One rule for the message and the automatic photo (`adviseOn`, `takesItself`).
 */
export const MIN_GUIDE_FILL = 2 / 3;
/** A card-shaped quad smaller than this share of the frame is not taken for the document (a label). */
export const CARD_IN_VIEW_MIN_SHARE = 0.05;
/** Good frames, steady, for this long before the photo takes itself. */
export const STEADY_MS = 500;
/** A corner moving more than this share of the frame's long side between two looks is not steady. */
export const STEADY_CORNER_SHARE = 0.025;
/** One look every this many ms at most (4 a second), counted from the start of the previous one. */
export const LOOK_INTERVAL_MS = 250;

/** The visible part of a `width`×`height` frame in the preview (its central PREVIEW_ASPECT box). */
function previewWidth(width: number, height: number): number {
  return Math.min(width, height * PREVIEW_ASPECT);
}

/**
 * The document's corners in the look (frame pixels): the framed quad, or else, where the outline
 * found print but no quad large enough to frame (a document too far away: QUAD_MIN_AREA_SHARE of
 * the frame) or no print at all, the largest card-shaped quad in view from CARD_IN_VIEW_MIN_SHARE.
 */
export function documentQuad(look: LiveLook): Point[] | null {
  const { verdict, width, height } = look;
  if (verdict.kind === 'framed') return verdict.quad;
  if (verdict.kind === 'cropped') return null;
  const card = look.cards?.[0]?.map((p) => ({ x: p.x * width, y: p.y * height }));
  if (!card) return null;
  const { width: w, height: h } = quadSize(card);
  return (w * h) / (width * height) >= CARD_IN_VIEW_MIN_SHARE ? card : null;
}

/**
 * How much of the dashed guide's width the document's long side fills (1: the guide's width);
 * null when no document is found (`documentQuad`).
 */
export function guideFill(look: LiveLook): number | null {
  const quad = documentQuad(look);
  if (!quad) return null;
  const { width: w, height: h } = quadSize(quad);
  return Math.max(w, h) / (GUIDE_WIDTH_SHARE * previewWidth(look.width, look.height));
}

/**
 * The advice for one look (never `searching` nor `taken`, which the camera says itself), given
 * what the code readers last said: the document's own state first (covered, cut off, missing, too
 * far; a code read means it is there, so never "missing"), then glare and blur, then the code; `holdStill` only when all is good, and then the
 * photo takes itself (`takesItself`). A document found only as a card shape (too far for the
 * outline to frame it) counts as framed once it fills MIN_GUIDE_FILL of the guide, if it shows
 * print (the photo check takes such a photo as the document filling it, `fullFrame`).
 */
export function adviseOn(
  look: LiveLook,
  code: CodeState = 'none',
): Exclude<DocumentAdvice, 'searching' | 'taken'> {
  const { verdict } = look;
  // As the service names it: before what a cover causes (no document found, an edge cut off).
  if (look.covered) return 'covered';
  if (verdict.kind === 'cropped') return 'fitWhole';
  // A code read proves a document in view, whatever the outline saw: where it sees no print (the
  // look's characters under 4 px, a faint edge), the photo check, on the same look, would refuse
  // the shot as no document; the print grows as the document comes closer.
  if (verdict.kind === 'none' && code === 'readable') return 'moveCloser';
  const fill = guideFill(look);
  if (fill === null) {
    if (verdict.kind === 'none') return 'noDocument';
    // Print with no outline around it: the document fills the frame, or its edge is lost in the
    // background (a dark cover on a dark desk). The photo check takes such a photo (`fullFrame`),
    // so where the side shows a code, the readers decide; else, move back to show its edges.
    if (code === 'none') return 'fitWhole';
  } else {
    if (fill < MIN_GUIDE_FILL) return 'moveCloser';
    // Close enough, yet no print seen on it: not a document (a blank card, a picture frame).
    if (verdict.kind === 'none') return 'noDocument';
  }
  if (hasGlare(look.glareShare)) return 'glare';
  if (isBlurry(look.blurScore)) return 'blurry';
  if (code === 'notReadable') return 'codeNotReadable';
  if (code === 'reading') return 'codeReading';
  return 'holdStill';
}

/** Whether the advice lets the photo take itself (after STEADY_MS of it, `SteadyWatch`). */
export const takesItself = (advice: DocumentAdvice): boolean => advice === 'holdStill';

/**
 * Counts good, steady looks: `see` says when the document has been framed, sharp, free of glare
 * and still (corners within STEADY_CORNER_SHARE of the previous look) for STEADY_MS.
 */
export class SteadyWatch {
  private since: number | null = null;
  private last: Point[] | null = null;

  see(look: LiveLook, advice: DocumentAdvice, now: number): boolean {
    if (!takesItself(advice)) {
      this.since = null;
      this.last = null;
      return false;
    }
    // Without corners (print whose edge is not seen, its code read), good looks in a row.
    const quad = documentQuad(look) ?? [];
    const limit = STEADY_CORNER_SHARE * Math.max(look.width, look.height);
    const still =
      this.since !== null &&
      this.last !== null &&
      this.last.length === quad.length &&
      quad.every((p, i) => Math.hypot(p.x - this.last![i]!.x, p.y - this.last![i]!.y) <= limit);
    if (!still) this.since = now;
    this.last = quad;
    return now - this.since! >= STEADY_MS;
  }
}
