import type { ErrorCode } from '@/shared/error-codes';
import type { ScreenLook } from '@/checks/document/screen-photo';
import type { CoverLook } from '@/checks/document/occlusion';
import type { ImageMetrics } from '@/checks/image/image-metrics';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import type { Pdf417Read } from '@/checks/document/node/barcode';
import type { MrzBandRead } from '@/checks/mrz/node/mrz-bands';
import { readImageHeader, type FacePixels, type InspectedDocument } from '@/checks/image/node/image';
import { inspectImageInPool, type ImageRun } from '../image-pool';
import type { CheckOutcome, InputFacts, StoredFile } from '@/checks/inputs/node/types';
import type { AlterationMap } from '@/checks/document/alteration';
import type { VizCrop, VizCropJob } from '@/checks/viz/node/viz-crops';
import {
  applyMarkers,
  fail,
  fileMarkers,
  markerOutcome,
  type CheckRun,
} from '@/checks/inputs/node/input-outcome';

export interface PhotoCheck {
  /** Code for bytes that are not a usable JPEG or PNG photo. */
  unusable: ErrorCode;
  /** Message when the file is not a JPEG or PNG at all. */
  notAPhoto: string;
  /** Code for a photo with a side under MIN_IMAGE_SIDE. */
  small: ErrorCode;
  family: (code: ErrorCode) => boolean;
  /** Read a PDF417 symbol from the same decode. */
  pdf417?: boolean;
  /** Find the MRZ bands in the same decode (when no marker decides). */
  mrz?: boolean;
  /** Keep the decode's pixels for the face checks (when no marker decides). */
  faces?: boolean;
  /** Find the document in the photo (when no marker decides). */
  document?: boolean;
  /** Measure what alteration detection compares (when no marker decides). */
  alteration?: boolean;
  /** Cut these boxes of the document for the printed-field OCR (when no marker decides). */
  viz?: VizCropJob[];
  /** Look for a screen's moiré (when no marker decides). */
  screen?: boolean;
  /** Look for something covering the document (when no marker decides). */
  cover?: boolean;
  /** Facts recorded once the size passes, before the markers. */
  sized?: InputFacts;
  /** Read sample markers (DEMO_SCENARIOS). */
  markers?: boolean;
  /** Whose image it is, and when its check is given up. */
  run?: CheckRun;
}

/**
 * The steps every photo input takes, in order: format, header and size, markers, pixel metrics,
 * then the marker's code. The metrics are recorded even when a marker decides, so verification data
 * shows them. Returns the outcome that ends the check, or the metrics for the input's own rules.
 */
export async function checkPhoto(
  file: StoredFile,
  facts: InputFacts,
  photo: PhotoCheck,
): Promise<
  | { outcome: CheckOutcome }
  | {
      metrics: ImageMetrics;
      pdf417?: Pdf417Read;
      mrzBands?: MrzBandRead[];
      mrzCropBands?: MrzBandRead[];
      faces?: FacePixels;
      facesCrop?: FacePixels;
      document?: InspectedDocument;
      alteration?: AlterationMap | null | { failed: string };
      vizCrops?: VizCrop[];
      screen?: ScreenLook;
      cover?: CoverLook;
    }
> {
  if (file.format !== 'jpeg' && file.format !== 'png') {
    return { outcome: fail(photo.unusable, photo.notAPhoto, facts) };
  }
  const header = await readImageHeader(file.path);
  if (!header.ok) return { outcome: fail(photo.unusable, header.reason, facts) };
  facts.width = header.width;
  facts.height = header.height;
  if (header.width < MIN_IMAGE_SIDE || header.height < MIN_IMAGE_SIDE) {
    return {
      outcome: fail(
        photo.small,
        `the image is ${header.width}×${header.height}; at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} is needed`,
        facts,
      ),
    };
  }
  Object.assign(facts, photo.sized);
  const markers = await fileMarkers(file.path, photo.markers, header.markers);
  const scenario = applyMarkers(markers, photo.family, facts);

  // One bounded decode in a worker thread feeds the metrics and, when asked, the barcode reader,
  // the MRZ band finder and the face checks.
  const run: ImageRun = { owner: photo.run?.verification, signal: photo.run?.signal };
  const measured = await inspectImageInPool(
    {
      path: file.path,
      decodeBytes: header.decodeBytes,
      pdf417: photo.pdf417,
      mrz: !scenario && photo.mrz,
      faces: !scenario && photo.faces,
      document: !scenario && photo.document,
      alteration: !scenario && photo.alteration,
      viz: scenario ? undefined : photo.viz,
      screen: !scenario && photo.screen,
      cover: !scenario && photo.cover,
    },
    run,
  );
  if (!measured.ok) return { outcome: fail(photo.unusable, measured.reason, facts) };
  const { metrics } = measured;
  facts.phash = metrics.phash;
  facts.grayscale = metrics.grayscale;
  facts.blurScore = Math.round(metrics.blurScore * 10) / 10;
  if (scenario) return { outcome: markerOutcome(scenario, facts) };
  if (measured.document) {
    facts.documentOutline = measured.document.verdict;
    if (measured.document.aspect) facts.documentAspect = measured.document.aspect;
  }
  return {
    metrics,
    pdf417: measured.pdf417,
    mrzBands: measured.mrzBands,
    mrzCropBands: measured.mrzCropBands,
    faces: measured.faces,
    facesCrop: measured.facesCrop,
    document: measured.document,
    alteration: measured.alteration,
    vizCrops: measured.vizCrops,
    screen: measured.screen,
    cover: measured.cover,
  };
}
