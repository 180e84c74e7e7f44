/** Bytes read to recognise a file: the format signature plus a JPEG's header segments (EXIF, SOF). */
export const HEAD_BYTES = 256 * 1024;

export async function readBytes(file: Blob, start = 0, end = file.size): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

export const readHead = (file: Blob) => readBytes(file, 0, Math.min(file.size, HEAD_BYTES));

/** The file's own name when it has one, else a name made from the input kind and the real format. */
export function fileName(file: Blob, fallbackBase: string, extension: string): string {
  const name = typeof File === 'function' && file instanceof File ? file.name : '';
  return name || `${fallbackBase}.${extension}`;
}

/** `photo.png` → `photo.jpg` once re-encoded, since the service checks names against descriptors. */
export const withExtension = (name: string, extension: string) =>
  `${name.replace(/\.[A-Za-z0-9]{1,5}$/, '')}.${extension}`;
