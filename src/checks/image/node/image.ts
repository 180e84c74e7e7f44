import sharp, { type Metadata } from 'sharp';
import { MAX_IMAGE_PIXELS } from '@/shared/limits';
import { FACE_INPUT_LONG_SIDE } from '@/checks/face/face-rules';
import {
  boxResize,
  imageMetrics,
  METRICS_DECODE_LONG_SIDE,
  type ImageMetrics,
} from '@/checks/image/image-metrics';
import { readPdf417Pixels, type Pdf417Read } from '@/checks/document/node/barcode';
import { decodeCost } from './decode-budget';
import { findDocument, type DocumentFound } from '@/checks/document/node/document-finder';
import {
  imageStructure,
  MAX_BUFFERED_DECODE_BYTES,
  MAX_IMAGE_METADATA_BYTES,
  MAX_JPEG_SCANS,
} from './image-metadata';
import { parseMarkers, type Markers } from '@/checks/inputs/node/marker';
import { mrzBandImages, type MrzBandRead } from '@/checks/mrz/node/mrz-bands';
import type { AlterationMap } from '@/checks/document/alteration';
import { alterationMap } from '@/checks/document/node/alteration-map';
import { vizCrops, type VizCrop, type VizCropJob } from '@/checks/viz/node/viz-crops';
import { lookForScreen, type ScreenLook } from '@/checks/document/screen-photo';
import { lookForCover, type CoverLook } from '@/checks/document/occlusion';

/**
 * Larger images are first shrunk by sharp so the long side is this many pixels; the shared metrics
 * then box-filter to 512. Bounds memory at ~12 MB of raw pixels whatever the upload.
 */
export const DECODE_LONG_SIDE = 2048;

export type ImageHeader =
  | {
      ok: true;
      width: number;
      height: number;
      markers: Markers;
      /** Memory one decode of it is expected to take (decode-budget.ts). */
      decodeBytes: number;
    }
  | { ok: false; reason: string };

const MB = 1024 * 1024;

/** Header only: dimensions, PNG text chunks, what a decode must buffer. Never decodes pixels. */
export async function readImageHeader(path: string): Promise<ImageHeader> {
  // Before sharp, which would turn every text chunk and segment into strings, whatever their size.
  const structure = await imageStructure(path).catch(() => null);
  if (!structure) return { ok: false, reason: 'the image cannot be decoded' };
  if (structure.metadataBytes > MAX_IMAGE_METADATA_BYTES) {
    return {
      ok: false,
      reason: `the image carries more than ${MAX_IMAGE_METADATA_BYTES / MB} MB of metadata`,
    };
  }
  let meta: Metadata;
  try {
    meta = await sharp(path, { limitInputPixels: false, failOn: 'truncated' }).metadata();
  } catch {
    return { ok: false, reason: 'the image cannot be decoded' };
  }
  const { width, height } = meta;
  if (!width || !height) return { ok: false, reason: 'the image has no dimensions' };
  if (width * height > MAX_IMAGE_PIXELS) {
    return {
      ok: false,
      reason: `the image is ${width}×${height}, over the ${MAX_IMAGE_PIXELS / 1e6} MP limit`,
    };
  }
  // A progressive JPEG of 1 MB may need 600 MB to decode, at any scale: refused before any decode
  // (sharp's header read above decodes nothing; the pixel count, read first, is the plainer reason).
  if (structure.bufferedDecodeBytes > MAX_BUFFERED_DECODE_BYTES) {
    return {
      ok: false,
      reason:
        `the image is ${structure.progressive ? 'progressive or interlaced' : 'encoded'} so that decoding it ` +
        `needs ${Math.ceil(structure.bufferedDecodeBytes / MB)} MB, over the ${MAX_BUFFERED_DECODE_BYTES / MB} MB limit`,
    };
  }
  // Each scan is one more pass over every block: 50,000 of them held a decoder for minutes.
  if (structure.scans > MAX_JPEG_SCANS) {
    return { ok: false, reason: `the image is coded in more than ${MAX_JPEG_SCANS} scans` };
  }
  const comments = (meta.comments ?? []).map((c) => `${c.keyword}\x00${c.text}`);
  const swap = (meta.orientation ?? 1) >= 5;
  return {
    ok: true,
    width: swap ? height : width,
    height: swap ? width : height,
    markers: parseMarkers(comments),
    decodeBytes: decodeCost(structure.bufferedDecodeBytes),
  };
}

/**
 * Long side of the one decode when no barcode is read: the metrics box-filter to 512 anyway, and a
 * JPEG this much smaller than the photo is decoded at 1/2, 1/4 or 1/8 scale by libjpeg itself
 * (shrink-on-load), at a fraction of a full decode's cost.
 */
export const METRICS_LONG_SIDE = METRICS_DECODE_LONG_SIDE;

export interface ImageJob {
  path: string;
  /** The header's estimate of the decode's memory (decode-budget.ts); a baseline decode's when unknown. */
  decodeBytes?: number;
  /** Read a PDF417 symbol too (from the same decode, at DECODE_LONG_SIDE). */
  pdf417?: boolean;
  /** Find the MRZ bands too (mrz-bands.ts), from the same decode where its width suits the OCR. */
  mrz?: boolean;
  /** Give back the decode's RGB pixels for the face checks (at most FACE_INPUT_LONG_SIDE). */
  faces?: boolean;
  /**
   * Find the document (document-finder.ts); the barcode, MRZ and face checks then read its
   * straightened crop when its four corners are in the photo.
   */
  document?: boolean;
  /** Measure what alteration detection compares (`alterationMap`: its own full-size decode). */
  alteration?: boolean;
  /**
   * Cut these boxes (shares of the document) from the straightened document, or from the photo
   * where the finder frames none, for the printed-field OCR (`@/checks/viz/node/viz-crops`).
   */
  viz?: VizCropJob[];
  /** Look for a screen's moiré (`@/checks/document/screen-photo`). */
  screen?: boolean;
  /** Look for something covering the document (`@/checks/document/occlusion`). */
  cover?: boolean;
}

/** RGB or RGBA pixels, row by row: the face checks' input (the alpha byte is skipped). */
export interface FacePixels {
  data: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
  channels: 3 | 4;
}

export type InspectedDocument = Omit<DocumentFound, 'crop' | 'mrzCrop'>;

export type InspectedImage =
  | {
      ok: true;
      metrics: ImageMetrics;
      pdf417?: Pdf417Read;
      /** The MRZ bands, lowest first. */
      mrzBands?: MrzBandRead[];
      faces?: FacePixels;
      /** The MRZ bands of the straightened document, when it was found framed. */
      mrzCropBands?: MrzBandRead[];
      /** The straightened document's pixels for the portrait, when it was found framed. */
      facesCrop?: FacePixels;
      /** The document's outline (the crops stay in the worker). */
      document?: InspectedDocument;
      /** What alteration detection compares; null when the photo is too large to look at whole. */
      alteration?: AlterationMap | null | { failed: string };
      /** The printed fields' crops asked (`viz`). */
      vizCrops?: VizCrop[];
      /** A screen's moiré, and the wall and CPU milliseconds its look took (CPU: the process's). */
      screen?: ScreenLook & { ms: number; cpuMs: number };
      /** Something covering the document, and the wall and CPU milliseconds its look took. */
      cover?: CoverLook & { ms: number; cpuMs: number };
    }
  | { ok: false; reason: string };

/**
 * The face checks' pixels: the RGBA decode itself, or box-filtered to FACE_INPUT_LONG_SIDE when
 * the decode is larger (a barcode's 2048 decode), the size the detector reads a file at. The face
 * worker makes its tensor straight from these bytes (no RGB conversion here).
 */
function facePixels(pixels: { data: Uint8Array; width: number; height: number }): FacePixels {
  const scale = FACE_INPUT_LONG_SIDE / Math.max(pixels.width, pixels.height);
  const image =
    scale < 1
      ? boxResize(
          { ...pixels, channels: 4 },
          Math.round(pixels.width * scale),
          Math.round(pixels.height * scale),
        )
      : pixels;
  return {
    // One copy (memcpy) into memory of V8's own: sharp's buffer cannot be detached, so moving it
    // to the service's thread and on to the face worker would copy it at each hop instead.
    data: new Uint8Array(image.data as Uint8Array),
    width: image.width,
    height: image.height,
    channels: 4,
  };
}

/**
 * Decodes the image once (EXIF-rotated, bounded: shrunk on load to METRICS_LONG_SIDE, or to
 * DECODE_LONG_SIDE when a barcode is read), then feeds every metric, the barcode reader, the MRZ
 * band finder and the face checks' pixels from that decode. Run in a worker thread (image-pool.ts).
 */
export async function inspectImage(path: string, job: Omit<ImageJob, 'path'> = {}): Promise<InspectedImage> {
  const longSide = job.pdf417 ? DECODE_LONG_SIDE : METRICS_LONG_SIDE;
  let pixels: { data: Buffer; width: number; height: number; channels: number };
  try {
    const { data, info } = await sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    pixels = { data, width: info.width, height: info.height, channels: info.channels };
  } catch {
    return { ok: false, reason: 'the image pixels cannot be decoded' };
  }
  const result: InspectedImage = { ok: true, metrics: imageMetrics(pixels) };
  if (job.screen) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const look = lookForScreen(pixels);
    const { user, system } = process.cpuUsage(cpu);
    result.screen = {
      ...look,
      ms: Math.round((performance.now() - started) * 10) / 10,
      cpuMs: Math.round((user + system) / 100) / 10,
    };
  }
  if (job.cover) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const look = lookForCover(pixels);
    const { user, system } = process.cpuUsage(cpu);
    result.cover = {
      ...look,
      ms: Math.round((performance.now() - started) * 10) / 10,
      cpuMs: Math.round((user + system) / 100) / 10,
    };
  }
  const { crop, mrzCrop, ...outline } = job.document
    ? await findDocument(pixels, { crop: job.pdf417 || job.faces || !!job.viz?.length, mrzCrop: job.mrz })
    : {};
  if (job.document) result.document = outline as InspectedDocument;
  // Whole photo first, as without the finder; the straightened document only when that reads
  // nothing, so that the finder never makes a reading worse (a crop can cut a code off the quad).
  if (job.pdf417) {
    const notFound = (): Pdf417Read => ({ found: false });
    const read = await readPdf417Pixels(pixels).catch(notFound);
    result.pdf417 = read.found || !crop ? read : await readPdf417Pixels(crop).catch(notFound);
  }
  // An unreadable band is no MRZ: the OCR is then not run. The crop's bands are read by the caller
  // only when the whole photo's do not pass their check digits.
  if (job.mrz) {
    result.mrzBands = await mrzBandImages(path, pixels).catch(() => []);
    if (mrzCrop) result.mrzCropBands = await mrzBandImages(path, { ...mrzCrop, channels: 4 }).catch(() => []);
  }
  if (job.alteration) {
    result.alteration = await alterationMap(path).catch((error: unknown) => ({
      failed: error instanceof Error ? error.message : String(error),
    }));
  }
  // The straightened document's crops; without one, the page around the photo's zone, if any.
  if (job.viz?.length)
    result.vizCrops = crop ? vizCrops({ ...crop, channels: 4 }, job.viz) : vizCrops(pixels, job.viz, true);
  if (job.faces) {
    result.faces = facePixels(pixels);
    if (crop) result.facesCrop = facePixels(crop);
  }
  return result;
}
