import type { DocumentCheckOutcome } from '@/checks/inputs/node/document-check-outcome';
import type { Point } from '@/checks/document/document-outline';
import {
  judgeAlteration,
  portraitRegion,
  type AlterationMap,
  type ShareBox,
} from '@/checks/document/alteration';
import { pointOnPhoto } from '@/checks/document/template-matching';
import type { PortraitFound } from './template-check';

/** The box of a framed document in the photo (shares), the whole photo where it is not framed. */
function documentBox(quad: Point[] | undefined): ShareBox {
  if (!quad) return { x: 0, y: 0, w: 1, h: 1 };
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const x = Math.max(0, Math.min(...xs));
  const y = Math.max(0, Math.min(...ys));
  return { x, y, w: Math.min(1, Math.max(...xs)) - x, h: Math.min(1, Math.max(...ys)) - y };
}

/**
 * Where the personal data is printed: beside the portrait, to the document's far edge (ICAO's
 * zone II right of zone V on a TD3 page and a TD1 card's front).
 */
function dataArea(portrait: ShareBox, document: ShareBox): ShareBox {
  const x = Math.max(portrait.x + portrait.w, document.x);
  const y = Math.max(portrait.y, document.y);
  const bottom = Math.min(portrait.y + portrait.h, document.y + document.h);
  return { x, y, w: Math.max(0, document.x + document.w - x), h: Math.max(0, bottom - y) };
}

/** The portrait's face box in the photo's shares, wherever the detector found it. */
function faceInPhoto(found: PortraitFound, quad: Point[] | undefined): ShareBox | undefined {
  if ('photo' in found.on) return found.box;
  if (!quad) return undefined;
  // Found on the straightened document: its corners back through the perspective.
  const { x, y, w, h } = found.box;
  const corners = [
    { x, y },
    { x: x + w, y: y + h },
  ].map((p) => pointOnPhoto(quad, p));
  const [a, b] = corners as [Point, Point];
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(b.x - a.x), h: Math.abs(b.y - a.y) };
}

/**
 * Alteration detection's outcome for an identity document's front: the editor its metadata names,
 * a portrait cleaner than the rest of the document (`judgeAlteration`). Not performed when the
 * photo could not be looked at whole (too large, a decode that failed).
 */
export function alterationOutcome(
  map: AlterationMap | null | { failed: string } | undefined,
  portrait: PortraitFound | undefined,
  quad: Point[] | undefined,
): DocumentCheckOutcome<'alteration-detection'> {
  if (!map) return { performed: false, reason: 'the photo is too large to be looked at whole' };
  if ('failed' in map) return { performed: false, reason: `the photo could not be looked at: ${map.failed}` };
  const face = portrait && faceInPhoto(portrait, quad);
  const document = documentBox(quad);
  const region = face && portraitRegion(face);
  const data = judgeAlteration(
    map,
    region ? [{ name: 'portrait', box: region }] : [],
    document,
    face && region
      ? { area: dataArea(region, document), window: { w: face.w * 1.2, h: face.h * 0.35 } }
      : undefined,
  );
  if (data.findings.length === 0) return { performed: true, passed: true, data };
  return {
    performed: true,
    passed: false,
    code: 'alterationDetection.digitalAlteration',
    message: `The document shows signs of digital alteration: ${data.findings.map((f) => `${f.region}: ${f.detail}`).join('; ')}.`,
    data,
  };
}
