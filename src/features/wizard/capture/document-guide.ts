import { polygonArea, type OutlineVerdict, type Point } from '@/checks/document/document-outline';
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
  | 'holdStill'
  | 'taken';

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
}

/**
 * A framed document smaller than this share of the frame is too far: its print would be a few
 * pixels high in the shot (the outline rules find it from 0.2 up).
 */
export const MOVE_CLOSER_SHARE = 0.3;
/** Good frames, steady, for this long before the photo takes itself. */
export const STEADY_MS = 500;
/** A corner moving more than this share of the frame's long side between two looks is not steady. */
export const STEADY_CORNER_SHARE = 0.025;
/** One look every this many ms at most (4 a second), counted from the start of the previous one. */
export const LOOK_INTERVAL_MS = 250;

/** The advice for one look (never `searching` nor `taken`, which the camera says itself). */
export function adviseOn(look: LiveLook): Exclude<DocumentAdvice, 'searching' | 'taken'> {
  const { verdict } = look;
  // As the service names it: before what a cover causes (no document found, an edge cut off).
  if (look.covered) return 'covered';
  if (verdict.kind === 'none') return 'noDocument';
  if (verdict.kind !== 'framed') return 'fitWhole';
  if (polygonArea(verdict.quad) / (look.width * look.height) < MOVE_CLOSER_SHARE) return 'moveCloser';
  if (hasGlare(look.glareShare)) return 'glare';
  if (isBlurry(look.blurScore)) return 'blurry';
  return 'holdStill';
}

/**
 * Counts good, steady looks: `see` says when the document has been framed, sharp, free of glare
 * and still (corners within STEADY_CORNER_SHARE of the previous look) for STEADY_MS.
 */
export class SteadyWatch {
  private since: number | null = null;
  private last: Point[] | null = null;

  see(look: LiveLook, advice: DocumentAdvice, now: number): boolean {
    const quad = look.verdict.kind === 'framed' ? look.verdict.quad : null;
    if (advice !== 'holdStill' || !quad) {
      this.since = null;
      this.last = null;
      return false;
    }
    const limit = STEADY_CORNER_SHARE * Math.max(look.width, look.height);
    const still =
      this.last !== null &&
      quad.every((p, i) => Math.hypot(p.x - this.last![i]!.x, p.y - this.last![i]!.y) <= limit);
    if (!still) this.since = now;
    this.last = quad;
    return now - this.since! >= STEADY_MS;
  }
}
