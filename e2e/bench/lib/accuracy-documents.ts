// The document finder (`@/checks/document/document-outline`, run by the service's image check) on a folder
// of labelled real photos: every `document` entry must be found (framed, filling the frame, or
// cropped: anything but "no document") and show an identity document's features (a portrait, a
// zone or a barcode: `identityFront`, as the service asks of a front), every `face` entry and every
// generated non-document (scripts/make-not-documents.ts: screenshots of text, a chat, a
// spreadsheet, a room, a landscape, A4 letters) refused as a document; entries under the spec's
// 600×600 minimum are counted apart (the service refuses them before looking). Time is the
// finder's own in the service's code (inspectImage in this process, OpenCV loaded beforehand); the
// features' time is the portrait's detection and the zone's reading (OCR where no portrait).
// The zone of each `mrz` document is read as the service reads it, from the whole photo (as before
// the finder) and, where that fails its check digits, from the straightened document.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { identityFront, zoneShaped } from '@/checks/document/document-outline';
import type { MrzRead } from '@/checks/mrz/document-reading';
import { judgeSide } from '@/checks/document/document-side-rules';
import { BACK_PORTRAIT_MIN_SCORE } from '@/checks/face/face-rules';
import { documentGlareShare, GLARE_SHARE_MAX, hasGlare, toGray } from '@/checks/image/image-metrics';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import { openCvReady } from '@/checks/document/node/document-finder';
import { documentFaces } from '@/service/checks/face-checks';
import { inspectImage } from '@/checks/image/node/image';
import { closeMrzReader, readMrzBands } from '@/checks/mrz/node/mrz';
import { makeNotDocuments } from '../../../scripts/make-not-documents';
import type { AccuracySection, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

type Features = { portrait: boolean | null; zone: boolean; barcode: boolean };

/**
 * The camera guide's glare figure (src/features/wizard/checks/document-worker.ts): the share of
 * blown-out pixels in the framed document's bounding box. A real document without a reflection
 * must stay under the mark, or the guide never takes it by itself.
 */
async function glareOf(file: string, quad: { x: number; y: number }[]) {
  const { data, info } = await sharp(file).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const corners = quad.map((p) => ({ x: p.x * info.width, y: p.y * info.height }));
  return documentGlareShare(toGray(data, info.channels), info.width, info.height, corners);
}

/**
 * The outline and an identity document's features in one picture, as the service measures them on
 * a front (portrait on the photo, else on the straightened document; the zone read wherever no
 * portrait shows, or where the entry has one to read; the PDF417 symbol).
 */
async function lookAt(file: string, readZone: boolean) {
  const inspected = await inspectImage(file, { document: true, mrz: true, faces: true, pdf417: true });
  if (!inspected.ok) return { inspected, outline: undefined, features: undefined, featureMs: 0 };
  const outline = inspected.document;
  const started = performance.now();
  // As the service looks at a claimed back: one or two sure faces on the found document, whole
  // photo (its own detection: the pixels go to the face worker once).
  const onBack = await documentFaces(file, {}, outline?.quad, BACK_PORTRAIT_MIN_SCORE).catch(() => undefined);
  const backPortrait = onBack === undefined ? null : onBack === null;
  let faces = await documentFaces(inspected.faces ?? file, {}, outline?.quad).catch(() => undefined);
  if (faces === 'noFace' && inspected.facesCrop)
    faces = await documentFaces(inspected.facesCrop, {}).catch(() => undefined);
  const portrait = faces === undefined ? null : faces !== 'noFace';
  let zone = false;
  let zoneLines: string[] | undefined;
  let whole: Awaited<ReturnType<typeof readMrzBands>> | undefined;
  if (readZone || !portrait) {
    whole = await readMrzBands(inspected.mrzBands ?? []);
    const shaped = (read: MrzRead) => read.found && zoneShaped(read.lines);
    zone = shaped(whole);
    if (zone && whole.found) zoneLines = whole.lines;
    if (!zone && inspected.mrzCropBands?.length) {
      const crop = await readMrzBands(inspected.mrzCropBands);
      zone = shaped(crop);
      if (zone && crop.found) zoneLines = crop.lines;
    }
  }
  const features: Features = { portrait, zone, barcode: inspected.pdf417?.found ?? false };
  return {
    inspected,
    outline,
    features,
    backPortrait,
    zoneLines,
    whole,
    featureMs: performance.now() - started,
  };
}

export async function documentsSection(set: EvalSet): Promise<AccuracySection> {
  await openCvReady();
  const docs = set.entries.filter((e) => e.kind === 'document');
  const faces = set.entries.filter((e) => e.kind === 'face');
  const times: number[] = [];
  const featureTimes: number[] = [];
  const verdicts: Record<string, string> = {};
  const identity: Record<string, ReturnType<typeof identityFront> | 'none'> = {};
  const featuresOf: Record<string, Features> = {};
  const small = new Set<string>();
  const sides: { file: string; features: Features; backPortrait: boolean | null; zoneLines?: string[] }[] =
    [];
  const glare: { file: string; share: number }[] = [];
  let zones = 0;
  let readWhole = 0;
  let readEither = 0;
  const judge = (file: string, verdict: string, features: Features | undefined) => {
    verdicts[file] = verdict;
    if (features) featuresOf[file] = features;
    identity[file] =
      verdict === 'none' || verdict === 'unreadable' || !features ? 'none' : identityFront(features);
  };
  for (const entry of [...docs, ...faces]) {
    const { width = 0, height = 0 } = await sharp(entry.path).metadata();
    if (Math.min(width, height) < MIN_IMAGE_SIDE) small.add(entry.file);
    const zone = entry.kind === 'document' && entry.expect === 'mrz';
    const { inspected, outline, features, backPortrait, zoneLines, whole, featureMs } = await lookAt(
      entry.path,
      zone,
    );
    judge(entry.file, outline?.verdict ?? 'unreadable', features);
    if (entry.kind === 'document' && features)
      sides.push({ file: entry.file, features, backPortrait, zoneLines });
    if (outline) times.push(outline.ms);
    if (features) featureTimes.push(featureMs);
    if (entry.kind === 'document' && outline?.verdict === 'framed' && outline.quad)
      glare.push({ file: entry.file, share: await glareOf(entry.path, outline.quad) });
    if (zone && inspected.ok) {
      zones++;
      const valid = whole?.found && whole.valid;
      if (valid) readWhole++;
      const crop =
        !valid && inspected.mrzCropBands?.length ? await readMrzBands(inspected.mrzCropBands) : undefined;
      if (valid || (crop?.found && crop.valid)) readEither++;
    }
  }
  // The generated pictures that are no document, written out for the service's decode.
  const dir = await mkdtemp(path.join(tmpdir(), 'not-documents-'));
  const notDocuments = await makeNotDocuments();
  for (const picture of notDocuments) {
    const file = path.join(dir, picture.name);
    await writeFile(file, picture.bytes);
    const { outline, features } = await lookAt(file, false);
    judge(picture.name, outline?.verdict ?? 'unreadable', features);
  }
  await rm(dir, { recursive: true, force: true });
  await closeMrzReader();
  const missedByOutline = docs.filter(
    (e) => verdicts[e.file] === 'none' || verdicts[e.file] === 'unreadable',
  );
  const missed = docs.filter((e) => identity[e.file] !== 'yes');
  const accepted = faces.filter((e) => identity[e.file] === 'yes');
  const acceptedByOutline = faces.filter((e) => verdicts[e.file] !== 'none');
  const notRefused = notDocuments.filter((p) => identity[p.name] === 'yes');
  const notRefusedByOutline = notDocuments.filter((p) => verdicts[p.name] !== 'none');
  const count = (kind: string) => docs.filter((e) => verdicts[e.file] === kind).length;
  const large = docs.filter((e) => !small.has(e.file));
  const found = docs.filter((e) => identity[e.file] === 'yes');
  // Sides (`judgeSide`, src/checks/document/document-side-rules.ts). The set labels no side: an ID card's
  // zone in TD1's shape (3×30) is on its back (ICAO 9303 part 5), a TD3 page (2×44) is a passport's
  // one side with its portrait. Each is claimed as a two-sided card's back and front (national ID,
  // a country of the default table: zone on the back) and as what it is.
  const card = (page: 'front' | 'back') => ({ type: 'national-id' as const, country: 'ES', page });
  const td1 = sides.filter((d) => d.zoneLines?.length === 3);
  const td3 = sides.filter((d) => d.zoneLines?.length === 2 && d.zoneLines[0]?.length === 44);
  const asBack = (d: (typeof sides)[number]) =>
    judgeSide(card('back'), { ...d.features, portrait: d.backPortrait });
  const backsKept = td1.filter((d) => asBack(d) !== 'sideMismatch');
  const backsAsFronts = td1.filter((d) => judgeSide(card('front'), d.features) === 'sideMismatch');
  const pagesAsBacks = td3.filter((d) => asBack(d) === 'sideMismatch');
  const figures = {
    backsTd1: td1.length,
    backsKeptAsBacks: backsKept.length,
    backsSentAsFrontsNamed: backsAsFronts.length,
    passportPages: td3.length,
    passportPagesSentAsBacksNamed: pagesAsBacks.length,
    documents: docs.length,
    documentsFoundByOutline: docs.length - missedByOutline.length,
    documentsFound: docs.length - missed.length,
    documentsAtLeast600: large.length,
    documentsAtLeast600Found: large.length - missed.filter((e) => !small.has(e.file)).length,
    framed: count('framed'),
    fullFrame: count('fullFrame'),
    cropped: count('cropped'),
    foundByPortrait: found.filter((e) => featuresOf[e.file]?.portrait).length,
    foundByZone: found.filter((e) => featuresOf[e.file]?.zone).length,
    foundByBarcode: found.filter((e) => featuresOf[e.file]?.barcode).length,
    faces: faces.length,
    facesRefusedByOutline: faces.length - acceptedByOutline.length,
    facesRefused: faces.length - accepted.length,
    notDocuments: notDocuments.length,
    notDocumentsRefusedByOutline: notDocuments.length - notRefusedByOutline.length,
    notDocumentsRefused: notDocuments.length - notRefused.length,
    zones,
    zonesReadWholePhoto: readWhole,
    zonesReadWholeOrStraightened: readEither,
    msP50: median(times),
    msP99: percentile(times, 99),
    framedMeasuredForGlare: glare.length,
    framedWithGlare: glare.filter((g) => hasGlare(g.share)).length,
    glareShareP50: Number(median(glare.map((g) => g.share)).toFixed(4)),
    glareShareMax: Number(Math.max(0, ...glare.map((g) => g.share)).toFixed(4)),
    featuresMsP50: Math.round(median(featureTimes)),
    featuresMsP99: Math.round(percentile(featureTimes, 99)),
  };
  return {
    name: 'documents found (service)',
    lines: [
      `documents found ${figures.documentsFound}/${docs.length} (by the outline alone ${figures.documentsFoundByOutline}: framed ${figures.framed}, filling the frame ${figures.fullFrame}, cropped ${figures.cropped}); of at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} px ${figures.documentsAtLeast600Found}/${large.length}`,
      `  shown by a portrait ${figures.foundByPortrait}, a zone ${figures.foundByZone}, a barcode ${figures.foundByBarcode}`,
      `face photos refused as documents ${figures.facesRefused}/${faces.length} (by the outline alone ${figures.facesRefusedByOutline})`,
      `generated non-documents refused ${figures.notDocumentsRefused}/${notDocuments.length} (by the outline alone ${figures.notDocumentsRefusedByOutline})`,
      `backs (ID cards whose zone reads in TD1's shape) kept as backs ${backsKept.length}/${td1.length}; sent as a front, named the other side ${backsAsFronts.length}/${td1.length}; passport pages (TD3) sent as a card's back, named the other side ${pagesAsBacks.length}/${td3.length}`,
      ...td1
        .filter((d) => !backsKept.includes(d))
        .map((d) => `  back refused as the other side (a face on it): ${d.file}`),
      ...td3
        .filter((d) => !pagesAsBacks.includes(d))
        .map((d) => `  passport page not named the other side as a back: ${d.file}`),
      `camera guide's glare (blown-out share of the framed document's box, mark ${GLARE_SHARE_MAX}): over the mark on ${figures.framedWithGlare}/${glare.length} framed documents; share p50 ${figures.glareShareP50}, max ${figures.glareShareMax}`,
      ...glare
        .filter((g) => hasGlare(g.share))
        .map(
          (g) => `  glare said on a document without a reflection label: ${g.file} (${g.share.toFixed(3)})`,
        ),
      `zones read (check digits pass) ${readWhole}/${zones} from the whole photo, ${readEither}/${zones} with the straightened document where that fails`,
      `finder time per image p50 ${figures.msP50} ms, p99 ${figures.msP99} ms; features (portrait, zone where needed) p50 ${figures.featuresMsP50} ms, p99 ${figures.featuresMsP99} ms`,
      ...missed.map(
        (e) =>
          `  missed document${small.has(e.file) ? ' (under 600 px)' : ''} (${verdicts[e.file]}, ${JSON.stringify(featuresOf[e.file] ?? null)}): ${e.file}`,
      ),
      ...accepted.map((e) => `  face taken for a document (${verdicts[e.file]}): ${e.file}`),
      ...notRefused.map((p) => `  non-document taken for a document (${verdicts[p.name]}): ${p.name}`),
    ],
    figures,
  };
}
