/**
 * Photos in formats the service does not take (HEIC/HEIF from iPhones, WebP, AVIF) are turned
 * into JPEG in the browser, so that the person never has to convert a photo themselves.
 */
export type ConvertibleFormat = 'heic' | 'webp' | 'avif';

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const heifBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/** HEIC, WebP or AVIF from the first bytes, or null. */
export function sniffConvertible(head: Uint8Array): ConvertibleFormat | null {
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'webp';
  if (head.length >= 12 && ascii(head, 4, 4) === 'ftyp') {
    const major = ascii(head, 8, 4);
    if (major === 'avif' || major === 'avis') return 'avif';
    if (heifBrands.has(major)) {
      // mif1 is the generic HEIF brand: an AVIF says so among its compatible brands.
      const box = Math.min(head.length, new DataView(head.buffer, head.byteOffset).getUint32(0));
      const compatible = ascii(head, 16, Math.max(0, box - 16));
      return compatible.includes('avif') ? 'avif' : 'heic';
    }
  }
  return null;
}

async function viaCanvas(source: CanvasImageSource & { width: number; height: number }): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.drawImage(source, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
  if (!blob) throw new Error('encoding failed');
  return blob;
}

const jpegName = (name: string) => `${name.replace(/\.[a-z0-9]{1,5}$/i, '') || 'photo'}.jpg`;

/**
 * The photo as a JPEG file. The browser decodes what it can (WebP and AVIF everywhere, HEIC in
 * Safari); a HEIC it cannot decode goes through libheif (WebAssembly), loaded only then.
 */
export async function convertToJpeg(file: File, format: ConvertibleFormat): Promise<File> {
  let jpeg: Blob | null = null;
  try {
    const bitmap = await createImageBitmap(file);
    try {
      jpeg = await viaCanvas(bitmap);
    } finally {
      bitmap.close();
    }
  } catch {
    if (format !== 'heic') throw new Error(`the browser cannot decode this ${format} photo`);
    // heic-to's CSP build: no eval, the WebAssembly module is compiled from bytes it carries.
    const { heicTo } = await import('heic-to/csp');
    jpeg = await heicTo({ blob: file, type: 'image/jpeg', quality: 0.92 });
  }
  return new File([jpeg], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
}
