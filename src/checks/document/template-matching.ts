import { documentShape, type Point } from './document-outline';
import {
  revisionsOf,
  type DocumentRevision,
  type LayoutBox,
  type LayoutSide,
  type ZoneFormat,
} from './layouts';

/**
 * What was seen of a document's layout on one side (each feature left out where it was not looked
 * for or could not be placed): the framed outline's long/short side, the portrait's centre on the
 * upright document (`y` left out where only its side can be told: a scan filling the photo, a
 * document standing upright), the zone's format, a barcode, the printed header's text.
 */
export interface LayoutSeen {
  page: 'front' | 'back';
  aspect?: number;
  /** null: looked for and none found. */
  portrait?: { x: number; y?: number } | null;
  zone?: ZoneFormat | null;
  barcode?: boolean | null;
  header?: string;
}

/** How one revision fares against what was seen. */
interface RevisionFit {
  revision: DocumentRevision;
  agree: string[];
  disagree: string[];
}

/** How far outside a box a portrait's centre may be and still be in it (a photo at an angle, a tilted card). */
const BOX_MARGIN = 0.06;

const inBox = (p: { x: number; y?: number }, box: LayoutBox) =>
  p.x >= box.x - BOX_MARGIN &&
  p.x <= box.x + box.w + BOX_MARGIN &&
  (p.y === undefined || (p.y >= box.y - BOX_MARGIN && p.y <= box.y + box.h + BOX_MARGIN));

/** Upper case, accents and punctuation off: how a header is compared. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

/** Whether a revision's side agrees or disagrees with each feature seen. */
function fit(revision: DocumentRevision, seen: LayoutSeen): RevisionFit {
  const side: LayoutSide = (seen.page === 'front' ? revision.front : revision.back) ?? {};
  const agree: string[] = [];
  const disagree: string[] = [];
  const verdict = (ok: boolean, what: string) => (ok ? agree : disagree).push(what);
  // The outline's shape decides only where no zone was read: a zone's format names the shape, and a
  // page's outline often takes in a fold or stops at its printed area (1.69 for a TD3 specimen).
  const shape = seen.zone ? null : documentShape(seen.aspect);
  if (shape) verdict(shape === (revision.shape === 'ID-1' ? 'card' : 'page'), 'shape');
  if (seen.portrait) {
    const boxes = side.portrait ? [side.portrait, ...(side.portraitAlternatives ?? [])] : [];
    verdict(
      boxes.some((box) => inBox(seen.portrait!, box)),
      'portrait',
    );
  }
  // A zone not read says nothing (glare, a worn card); one read of a format this side does not
  // carry does.
  if (seen.zone) verdict(side.zone?.format === seen.zone, 'zone');
  if (seen.barcode) verdict(side.barcode !== undefined, 'barcode');
  if (seen.header && side.header?.length) {
    const text = plain(seen.header);
    verdict(
      side.header.some((words) => text.includes(plain(words))),
      'header',
    );
  }
  return { revision, agree, disagree };
}

/** What template matching found: the revision (null when none matched), how well, or nothing to judge. */
export type TemplateVerdict =
  | { judged: false; reason: string }
  | {
      judged: true;
      revision: DocumentRevision | null;
      /** Valid on `today` (its flag and its last day). */
      valid: boolean;
      /** Features that agreed with the revision found, of those seen (0–1). */
      score: number;
      /** What no revision agreed with, for staff, when none matched. */
      why?: string;
    };

const featureNames: Record<string, string> = {
  shape: 'its shape',
  portrait: "the portrait's place",
  zone: "the machine-readable zone's format",
  barcode: 'its barcode',
  header: 'its printed header',
};

/**
 * Matches what was seen of a document against the known revisions of its type and country
 * (`revisionsOf`): a revision matches when nothing seen disagrees with it and something agrees.
 * Of those, the one most agreed with; on a tie a country's own revision before ICAO's, then a
 * valid one (two revisions only their header tells apart stay undecided until it is read).
 */
export function matchTemplate(
  type: string,
  country: string,
  seen: LayoutSeen,
  options: { today: string },
): TemplateVerdict {
  const candidates = revisionsOf(type, country);
  if (candidates.length === 0)
    return { judged: false, reason: `no revision of ${type} (${country}) is known` };
  const fits = candidates.map((revision) => fit(revision, seen));
  const observed = Math.max(...fits.map((f) => f.agree.length + f.disagree.length));
  if (observed === 0) return { judged: false, reason: 'nothing of the layout could be seen' };
  const validOn = (r: DocumentRevision) => r.valid && (!r.validUntil || r.validUntil >= options.today);
  const rank = (f: RevisionFit) =>
    f.agree.length * 4 + (f.revision.country === '*' ? 0 : 2) + (validOn(f.revision) ? 1 : 0);
  const matched = fits
    .filter((f) => f.disagree.length === 0 && f.agree.length > 0)
    .sort((a, b) => rank(b) - rank(a));
  const best = matched[0];
  if (best) {
    return {
      judged: true,
      revision: best.revision,
      valid: validOn(best.revision),
      score: Math.round((best.agree.length / (best.agree.length + best.disagree.length)) * 100) / 100,
    };
  }
  // The nearest revision names what disagreed.
  const nearest = [...fits].sort(
    (a, b) => a.disagree.length - b.disagree.length || b.agree.length - a.agree.length,
  )[0]!;
  return {
    judged: true,
    revision: null,
    valid: false,
    score: 0,
    why: `${nearest.disagree.map((f) => featureNames[f]).join(' and ')} match no known revision of ${type} (${country})`,
  };
}

/** The square-to-quad homography (Heckbert) of a quad's corners, clockwise from top-left. */
function squareToQuad(quad: readonly Point[]) {
  const [a, b, c, d] = quad as [Point, Point, Point, Point];
  const sx = a.x - b.x + c.x - d.x;
  const sy = a.y - b.y + c.y - d.y;
  const dx1 = b.x - c.x;
  const dx2 = d.x - c.x;
  const dy1 = b.y - c.y;
  const dy2 = d.y - c.y;
  const det = dx1 * dy2 - dx2 * dy1 || 1e-12;
  const g = (sx * dy2 - dx2 * sy) / det;
  const h = (dx1 * sy - sx * dy1) / det;
  return [
    [b.x - a.x + g * b.x, d.x - a.x + h * d.x, a.x],
    [b.y - a.y + g * b.y, d.y - a.y + h * d.y, a.y],
    [g, h, 1],
  ] as const;
}

/** A point of the document (shares of its own width and height) in the photo, where `quad` frames it. */
export function pointOnPhoto(quad: readonly Point[], p: Point): Point {
  const [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]] = squareToQuad(quad);
  const w = m20 * p.x + m21 * p.y + m22;
  return { x: (m00 * p.x + m01 * p.y + m02) / w, y: (m10 * p.x + m11 * p.y + m12) / w };
}

/**
 * A point of the image (shares of its width and height) on the document whose corners `quad`
 * gives (clockwise from top-left, same shares): shares of the document's own width and height,
 * through the perspective that maps the quad onto a rectangle.
 */
export function pointOnDocument(quad: readonly Point[], p: Point): Point {
  // The inverse by the adjugate (its scale cancels in the division).
  const [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]] = squareToQuad(quad);
  const i00 = m11 * m22 - m12 * m21;
  const i01 = m02 * m21 - m01 * m22;
  const i02 = m01 * m12 - m02 * m11;
  const i10 = m12 * m20 - m10 * m22;
  const i11 = m00 * m22 - m02 * m20;
  const i12 = m02 * m10 - m00 * m12;
  const i20 = m10 * m21 - m11 * m20;
  const i21 = m01 * m20 - m00 * m21;
  const i22 = m00 * m11 - m01 * m10;
  const w = i20 * p.x + i21 * p.y + i22;
  return { x: (i00 * p.x + i01 * p.y + i02) / w, y: (i10 * p.x + i11 * p.y + i12) / w };
}
