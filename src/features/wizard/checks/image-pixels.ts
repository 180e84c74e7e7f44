import { imageMetrics, type ImageMetrics } from '@/shared/image-metrics';

/**
 * Decodes an image as the person sees it (EXIF orientation applied) and measures it with the
 * service's own metrics on full-resolution pixels, so the browser and the service normalise alike.
 * Runs in the metrics worker, or on the page where OffscreenCanvas is missing.
 */
export async function decodeAndMeasure(file: Blob): Promise<ImageMetrics> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  const { width, height } = bitmap;
  try {
    const canvas =
      typeof OffscreenCanvas === 'function'
        ? new OffscreenCanvas(width, height)
        : Object.assign(document.createElement('canvas'), { width, height });
    const context = canvas.getContext('2d', { willReadFrequently: true }) as
      OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
    if (!context) throw new Error('no 2d context');
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, width, height);
    return imageMetrics({ data, width, height, channels: 4 });
  } finally {
    bitmap.close();
  }
}
