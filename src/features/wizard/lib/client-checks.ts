import {
  extensionOf,
  imageFormats,
  mimeOf,
  sniffFormat,
  videoFormats,
  type FileFormat,
} from '@/shared/file-format';
import { MAX_FILE_BYTES } from '@/shared/limits';

export type ClientReason = `client.${string}`;
export type AcceptKind = 'image' | 'video' | 'image-or-pdf' | 'pdf';

const formatsOf: Record<AcceptKind, readonly FileFormat[]> = {
  image: imageFormats,
  video: videoFormats,
  'image-or-pdf': [...imageFormats, 'pdf'],
  pdf: ['pdf'],
};

/** An `<input accept>` from the formats: their MIME types and extensions (`.jpeg` too, as people name them). */
const acceptOf = (formats: readonly FileFormat[]) =>
  [
    ...formats.map((format) => mimeOf[format]),
    ...formats.flatMap((format) => (format === 'jpeg' ? ['.jpg', '.jpeg'] : [`.${extensionOf[format]}`])),
  ].join(',');

export const acceptAttribute = Object.fromEntries(
  Object.entries(formatsOf).map(([kind, formats]) => [kind, acceptOf(formats)]),
) as Record<AcceptKind, string>;

/** The format from the file's first bytes (never its name), or a client reason to refuse it. */
export async function sniffAllowed(
  file: Blob,
  accept: AcceptKind,
): Promise<{ ok: true; format: FileFormat } | { ok: false; reason: ClientReason }> {
  if (file.size > MAX_FILE_BYTES) return { ok: false, reason: 'client.tooBig' };
  const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
  const format = sniffFormat(head);
  if (!format) return { ok: false, reason: 'client.wrongFormat' };
  if (format === 'pdf' && !formatsOf[accept].includes('pdf'))
    return { ok: false, reason: 'client.pdfNotAllowed' };
  if (!formatsOf[accept].includes(format)) {
    return { ok: false, reason: accept === 'video' ? 'client.videoFormat' : 'client.wrongFormat' };
  }
  return { ok: true, format };
}
