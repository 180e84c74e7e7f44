import {
  descriptorSimilarity,
  FACE_MATCH_MIN_SIMILARITY,
  SAME_PORTRAIT_MIN_SIMILARITY,
} from '@/checks/face/face-rules';
import { hammingDistance, SAME_PICTURE_MAX_DISTANCE } from '@/checks/image/image-metrics';
import type { InputFacts } from '@/checks/inputs/node/types';

/** FACE_MATCH_MIN_SIMILARITY as the facematch step shows it beside its score (a percentage). */
export const FACE_MATCH_PASS_MARK = Math.round(FACE_MATCH_MIN_SIMILARITY * 10_000) / 100;

export interface FaceMatch {
  /** Similarity as a percentage (0–100, two decimals): the facematch step's score. */
  score: number;
  passed: boolean;
  /**
   * The selfie is the document's own picture (the same photo by its hash) or its face the
   * document's printed portrait (`SAME_PORTRAIT_MIN_SIMILARITY`): never a pass.
   */
  samePortrait?: true;
}

/**
 * The face match of a document: the selfie's (or video frame's) face descriptor against the
 * document portrait's. Undefined when either has no face to compare (a utility bill, a document
 * type without a portrait, a video whose frames could not be taken): then there is no facematch
 * step.
 */
export function faceMatch(biometric: InputFacts | undefined, documentFront: InputFacts | undefined) {
  const a = biometric?.faceDescriptor;
  const b = documentFront?.faceDescriptor;
  if (!a?.length || !b?.length) return undefined;
  const similarity = descriptorSimilarity(a, b);
  const score = Math.round(Math.max(0, similarity) * 10_000) / 100;
  const [hashA, hashB] = [biometric?.phash, documentFront?.phash];
  const samePicture = !!hashA && !!hashB && hammingDistance(hashA, hashB) <= SAME_PICTURE_MAX_DISTANCE;
  if (samePicture || similarity >= SAME_PORTRAIT_MIN_SIMILARITY)
    return { score, passed: false, samePortrait: true } satisfies FaceMatch;
  return { score, passed: similarity >= FACE_MATCH_MIN_SIMILARITY } satisfies FaceMatch;
}
