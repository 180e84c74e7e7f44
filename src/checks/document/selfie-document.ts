/**
 * A selfie that is a photo of a document (an ID card or passport held up to the camera, a printed
 * page, a paper copy): the rule of the service's selfie check and of the wizard's, on the document
 * finder's look (`outlineOf` of ./document-outline) and the selfie's largest face. Measured by
 * `npm run bench:accuracy -- <eval folder> card-selfie` on every document photo and every photo of
 * people of the eval set.
 */

import { insideQuad, polygonArea, TEXT_MIN_CHARS, type OutlineVerdict, type Point } from './document-outline';

/**
 * Print alone: a selfie with this many characters in lines of print is a document's photo. Photos
 * of people show some (a printed shirt, a bead curtain, a blind): at most 36 over the 106 photos of
 * people of the eval set, where camera photos of cards and passports at a document photo's
 * distance show 41–335 and the product's samples 67–135.
 */
export const SELFIE_PRINT_MIN_CHARS = 2 * TEXT_MIN_CHARS;
/**
 * A card's portrait is small on its card: on the eval set's framed documents and the samples the
 * face's box covers 5–12 % of the document's outline. A face covering more of a frame around it
 * is a person in front of (or inside) a frame, not a card's portrait.
 */
export const PORTRAIT_MAX_CARD_SHARE = 0.25;
/**
 * A face this small beside the photo's shorter side (a share of it) is far from the lens; with a
 * document's print in the photo (TEXT_MIN_CHARS, the finder's own mark of a document) it is the
 * portrait of a card or a paper copy held in view. A selfie's face spans 30–100 % (the product's
 * samples 40–55 %); the eval set's people photographed from afar, whose faces span 11–29 %, show
 * at most 12 characters of print.
 */
export const FAR_FACE_MAX_SIDE_SHARE = 0.3;
/**
 * Print around a far face from which it is a document's portrait: half again the most the eval
 * set's people photographed from afar show (12), under the finder's own mark of a document
 * (TEXT_MIN_CHARS), which paper copies held at arm's length fall short of (22–23 characters: a
 * copy's print is faint and small at that distance).
 */
export const FAR_FACE_PRINT_MIN_CHARS = 18;
/**
 * A face this large beside the photo's shorter side is the person at a selfie's distance, whatever
 * print is behind them (a bead curtain and a blind, enlarged to the spec's 600 px, read as 68
 * characters): a document's portrait shares its page with print, and on the eval set's document
 * photos the largest face spans 0.05–0.63 of the shorter side, a passport page filling the frame.
 */
export const CLOSE_FACE_MIN_SIDE_SHARE = 0.8;

/** A face's box as shares of the photo's width and height. */
export interface ShareBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SelfieLook {
  /** The photo's width and height (any scale: the quad and the face are shares of them). */
  width: number;
  height: number;
  /** The document finder's verdict on the photo. */
  outline: OutlineVerdict['kind'];
  /** Characters in lines of print (`lookForOutline`'s textChars). */
  textChars: number;
  /** A framed (or cropped) document's corners, as shares of the photo's width and height. */
  quad?: Point[];
  /** Card-shaped quads of any size, as shares (`OutlineLook.cards`): a small card in view. */
  cards?: Point[][];
  /** The largest face, when one was found (the selfie's face check). */
  face?: ShareBox;
}

export type SelfieDocumentReason =
  /** The photo carries a document's print. */
  | 'print'
  /** The face is a small portrait inside a document's outline with print on it. */
  | 'portraitOnDocument'
  /** A far, small face with a document's print around it. */
  | 'farFaceWithPrint'
  /** A far, small face wholly inside a card-shaped outline many times its size: a card's portrait. */
  | 'portraitOnCard';

/** Why a selfie is a photo of a document, or null when it is not. */
export function selfieShowsDocument(look: SelfieLook): SelfieDocumentReason | null {
  const { face } = look;
  const side = face
    ? Math.min(face.w * look.width, face.h * look.height) / Math.min(look.width, look.height)
    : 0;
  if (look.textChars >= SELFIE_PRINT_MIN_CHARS && side < CLOSE_FACE_MIN_SIDE_SHARE) return 'print';
  // Without a face there is no portrait to tell; the selfie's face check refuses it anyway.
  if (!face) return null;
  const far = side < FAR_FACE_MAX_SIDE_SHARE;
  if (far && look.cards?.some((card) => portraitOn(face, card))) return 'portraitOnCard';
  // The finder frames (or crops) an outline only with print on it (`judgeOutline`).
  if (
    look.textChars >= TEXT_MIN_CHARS &&
    look.quad &&
    (look.outline === 'framed' || look.outline === 'cropped')
  ) {
    const centre = { x: face.x + face.w / 2, y: face.y + face.h / 2 };
    const cardArea = polygonArea(look.quad);
    if (
      insideQuad(centre, look.quad) &&
      cardArea > 0 &&
      (face.w * face.h) / cardArea <= PORTRAIT_MAX_CARD_SHARE
    )
      return 'portraitOnDocument';
  }
  return far && look.textChars >= FAR_FACE_PRINT_MIN_CHARS ? 'farFaceWithPrint' : null;
}

/** A face's box wholly inside a card's outline and a small part of it, as a printed portrait is. */
function portraitOn(face: ShareBox, card: Point[]): boolean {
  const corners = [
    { x: face.x, y: face.y },
    { x: face.x + face.w, y: face.y },
    { x: face.x + face.w, y: face.y + face.h },
    { x: face.x, y: face.y + face.h },
  ];
  const area = polygonArea(card);
  return (
    area > 0 &&
    (face.w * face.h) / area <= PORTRAIT_MAX_CARD_SHARE &&
    corners.every((corner) => insideQuad(corner, card))
  );
}

/** The words of the refusal (the service's message; the wizard shows its own translated prompt). */
export const SELFIE_DOCUMENT_MESSAGE = 'the selfie shows a document or a printed photo, not the person';
