import libUrl from 'browser-image-compression/dist/browser-image-compression.js?url';
import { addJpegComments } from './image-bytes';
import type { CompressionPlan } from './compression-plan';
import { COMPRESS_QUALITY, TARGET_MAX_MB } from './compression-plan';
import { withExtension } from './read-head';

/**
 * Re-encodes a photo as a JPEG of the planned size in browser-image-compression's web worker, with
 * the EXIF orientation applied and every other metadata (location included) dropped. The scenario
 * markers of the original are written back as JPEG comments, where the service looks for them.
 */
export async function compressImage(
  file: File,
  plan: CompressionPlan,
  markers: readonly string[],
): Promise<File> {
  const { default: imageCompression } = await import('browser-image-compression');
  const compressed = await imageCompression(file, {
    maxWidthOrHeight: plan.maxWidthOrHeight,
    maxSizeMB: TARGET_MAX_MB,
    // Only the quality may go down to meet maxSizeMB: a smaller resolution could fall under 600×600.
    alwaysKeepResolution: true,
    initialQuality: COMPRESS_QUALITY,
    fileType: 'image/jpeg',
    useWebWorker: true,
    // The worker importScripts() this URL; a relative one fails inside the blob: worker and the
    // library then silently compresses on the main thread.
    libURL: new URL(libUrl, location.href).href,
    preserveExif: false,
  });
  const bytes = addJpegComments(new Uint8Array(await compressed.arrayBuffer()), markers);
  return new File([bytes as BlobPart], withExtension(file.name, 'jpg'), {
    type: 'image/jpeg',
    lastModified: file.lastModified,
  });
}
