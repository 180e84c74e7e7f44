import type { DocumentCheckOutcome } from '@/checks/inputs/node/document-check-outcome';
import type { Point } from '@/checks/document/document-outline';
import type { ZoneFormat } from '@/checks/document/layouts';
import { matchTemplate, pointOnDocument, type LayoutSeen } from '@/checks/document/template-matching';

/** Where the portrait was found: a box in shares of the picture the face detector read. */
export interface PortraitFound {
  box: { x: number; y: number; w: number; h: number };
  /** The picture: the whole photo (the framed document's corners in it, or none) or the straightened document. */
  on: { photo: { quad?: Point[] } } | { straightened: { width: number; height: number } };
}

/** The zone's format from its read lines (two or three lines of 30, 36 or 44). */
export function zoneFormat(lines: readonly string[]): ZoneFormat | null {
  const length = lines[0]?.length;
  if (lines.length === 3 && length === 30) return 'TD1';
  if (lines.length === 2 && length === 36) return 'TD2';
  if (lines.length === 2 && length === 44) return 'TD3';
  return null;
}

/**
 * The portrait's centre on the upright document. Where the document stands taller than wide (a
 * passport open on two pages, a card turned) only its side can be told: `y` is left out. Where the
 * document is not framed (a photo filling the frame: a scan with its margins, a passport's other
 * page, a crop) its edges are not known: undefined.
 */
export function portraitOnDocument(
  found: PortraitFound,
  photo: { width: number; height: number },
): { x: number; y?: number } | undefined {
  const centre = { x: found.box.x + found.box.w / 2, y: found.box.y + found.box.h / 2 };
  if ('straightened' in found.on) {
    const { width, height } = found.on.straightened;
    return width >= height ? centre : { x: centre.x };
  }
  const quad = found.on.photo.quad;
  if (!quad) return undefined;
  const [tl, tr, , bl] = quad as [Point, Point, Point, Point];
  const across = Math.hypot((tr.x - tl.x) * photo.width, (tr.y - tl.y) * photo.height);
  const down = Math.hypot((bl.x - tl.x) * photo.width, (bl.y - tl.y) * photo.height);
  const onDocument = pointOnDocument(quad, centre);
  return across >= down ? onDocument : { x: onDocument.x };
}

/**
 * Template matching's outcome for a document side (`matchTemplate` on what was seen): the
 * revision found; `noMatchFound` when none matched, `revisionNotValid` when the one found may no
 * longer be presented; not performed when nothing of the layout was seen.
 */
export function templateOutcome(
  claim: { type: string; country: string },
  seen: LayoutSeen,
  options: { today: string },
): DocumentCheckOutcome<'template-matching'> {
  const verdict = matchTemplate(claim.type, claim.country, seen, options);
  if (!verdict.judged) return { performed: false, reason: verdict.reason };
  const found = verdict.revision;
  const revision = found && {
    id: found.id,
    name: found.name,
    type: found.type,
    country: found.country === '*' ? claim.country : found.country,
    valid: verdict.valid,
    ...(found.validUntil ? { validUntil: found.validUntil } : {}),
  };
  const data = { revision, score: verdict.score };
  if (!found) {
    return {
      performed: true,
      passed: false,
      code: 'templateMatching.noMatchFound',
      message: `The document matches no known template: ${verdict.why}.`,
      data,
    };
  }
  if (!verdict.valid) {
    return {
      performed: true,
      passed: false,
      code: 'templateMatching.revisionNotValid',
      message: `The document is a ${found.name}, a revision no longer valid.`,
      data,
    };
  }
  return { performed: true, passed: true, data };
}
