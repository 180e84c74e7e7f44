import { identityFront, IDENTITY_TYPES, type SideFeatures } from './document-outline';
import { mrzPage, type DocumentPage } from '@/checks/mrz/document-reading';
import type { DocumentType } from '@/shared/flow';
import { SAME_PICTURE_MAX_DISTANCE, SIMILAR_HASH_MAX_DISTANCE } from '@/checks/image/image-metrics';

/**
 * Which side of which document shows what, and what a side's features say about the side the
 * person claims it is: one rule set for the embedded service (src/service/checks/inputs/document-photo.ts)
 * and the wizard's capture checks (src/features/wizard/checks/check-image.ts), so both refuse the
 * same photo with the same code (`noDocument`, `sideMismatch`, `similarImages`).
 */

/** The side the person says a photo shows, of the document type and country they chose. */
export interface SideClaim {
  type: DocumentType;
  country: string;
  page: DocumentPage;
}

/**
 * The sides a PDF417 symbol is printed on, where a type's barcode is known: the Argentine DNI's on
 * either (the back of the cards of 2009–2011, the front of later ones), so it names no side; a US
 * driving licence's on the back (AAMVA card design standard). Elsewhere none is looked for.
 */
export function pdf417Pages(type: DocumentType, country: string): readonly DocumentPage[] {
  const state = country.toUpperCase();
  if (type === 'national-id' && state === 'AR') return ['front', 'back'];
  if (type === 'driving-license' && state === 'US') return ['back'];
  return [];
}

/** What a side of the claimed document shows of its own: its holder's portrait, its zone, its barcode. */
export function sideCarries(claim: SideClaim): { portrait: boolean; zone: boolean; barcode: boolean } {
  return {
    // An identity document's portrait is on its front (ICAO 9303's data page, ID-1 cards' front).
    portrait: claim.page === 'front' && IDENTITY_TYPES.includes(claim.type),
    zone: mrzPage(claim.type, claim.country) === claim.page,
    barcode: pdf417Pages(claim.type, claim.country).includes(claim.page),
  };
}

const otherPage = (claim: SideClaim): SideClaim => ({
  ...claim,
  page: claim.page === 'front' ? 'back' : 'front',
});

/** Whether the other side of the claimed document carries a feature this side does not. */
function otherSideOnly(claim: SideClaim, feature: keyof SideFeatures): boolean {
  return !sideCarries(claim)[feature] && sideCarries(otherPage(claim))[feature];
}

export type SideVerdict =
  /** The photo shows what only the document's other side shows: a portrait on a back, a zone on a front. */
  | 'sideMismatch'
  /** An identity document's front with none of its own features (`identityFront`). */
  | 'noDocument'
  /** A feature that was not looked for could still decide (the caller leaves the word to another check). */
  | 'unknown'
  | null;

/**
 * The rule on a side that the outline took for a document (`framed` or `fullFrame`): first what
 * contradicts the claimed side (a feature only the other side carries: the person photographed
 * the other side), then, on an identity document's front, whether it shows any of its features.
 * Features are `null` where not looked for; a rule needing one that is null does not fire.
 */
export function judgeSide(claim: SideClaim, features: SideFeatures): SideVerdict {
  for (const feature of ['portrait', 'zone', 'barcode'] as const) {
    if (features[feature] === true && otherSideOnly(claim, feature)) return 'sideMismatch';
  }
  if (claim.page === 'front' && IDENTITY_TYPES.includes(claim.type)) {
    const front = identityFront(features);
    if (front === 'no') return 'noDocument';
    if (front === 'unknown') return 'unknown';
  }
  return null;
}

/**
 * Whether the photo shows its claimed side by a feature that tells the two sides apart: one only
 * this side carries (a portrait on a front, a zone on the side that has it), or the absence of the
 * portrait only the other side carries (a card's back, looked at and showing no face).
 */
export function showsOwnSide(claim: SideClaim, features: SideFeatures): boolean {
  return (['portrait', 'zone', 'barcode'] as const).some(
    (feature) =>
      (features[feature] === true && otherSideOnly(otherPage(claim), feature)) ||
      (feature === 'portrait' && features.portrait === false && otherSideOnly(claim, 'portrait')),
  );
}

/**
 * Whether two sides' pictures are the same side sent twice (`similarImages`), from their hashes'
 * distance: the same picture (SAME_PICTURE_MAX_DISTANCE) always; a picture merely alike (cards of
 * one design look alike, SIMILAR_HASH_MAX_DISTANCE) only when this one does not show its own side.
 */
export function sameSideTwice(distance: number, claim: SideClaim, features: SideFeatures): boolean {
  if (distance <= SAME_PICTURE_MAX_DISTANCE) return true;
  return distance <= SIMILAR_HASH_MAX_DISTANCE && !showsOwnSide(claim, features);
}
