/** File formats recognised from their first bytes, never from their names. */
export type FileFormat = 'jpeg' | 'png' | 'pdf' | 'mp4' | 'mov' | '3gp' | 'webm' | 'mkv';

export const imageFormats: readonly FileFormat[] = ['jpeg', 'png'];
export const videoFormats: readonly FileFormat[] = ['mp4', 'mov', '3gp', 'webm', 'mkv'];

export const mimeOf: Record<FileFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
};

export const extensionOf: Record<FileFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  pdf: 'pdf',
  mp4: 'mp4',
  mov: 'mov',
  '3gp': '3gp',
  webm: 'webm',
  mkv: 'mkv',
};

/** The form field of a send-input file → formats accepted there (service spec 8). */
export const allowedFormats = {
  document: imageFormats,
  selfie: imageFormats,
  video: videoFormats,
  'custom-document': [...imageFormats, 'pdf'],
  'bank-document': [...imageFormats, 'pdf'],
} as const satisfies Record<string, readonly FileFormat[]>;
export type FileField = keyof typeof allowedFormats;

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** Needs the first 64 bytes at least (more helps to tell WebM from Matroska). */
export function sniffFormat(bytes: Uint8Array): FileFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  // A PDF header may follow a little junk; readers accept it within the first 1024 bytes.
  if (ascii(bytes, 0, Math.min(bytes.length, 1024)).includes('%PDF-')) return 'pdf';
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (brand === 'qt  ') return 'mov';
    if (brand.startsWith('3g')) return '3gp';
    return 'mp4';
  }
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return ascii(bytes, 0, Math.min(bytes.length, 64)).includes('webm') ? 'webm' : 'mkv';
  }
  return null;
}
