import { sniffFormat, type FileFormat } from '@/shared/file-format';
import { MAX_FILE_BYTES } from '@/shared/limits';

export type ClientReason = `client.${string}`;
export type AcceptKind = 'image' | 'video' | 'image-or-pdf' | 'pdf';

const formatsOf: Record<AcceptKind, readonly FileFormat[]> = {
  image: ['jpeg', 'png'],
  video: ['mp4', 'mov', '3gp', 'webm', 'mkv'],
  'image-or-pdf': ['jpeg', 'png', 'pdf'],
  pdf: ['pdf'],
};

export const acceptAttribute: Record<AcceptKind, string> = {
  image: 'image/jpeg,image/png,.jpg,.jpeg,.png',
  video: 'video/mp4,video/webm,video/quicktime,video/3gpp,video/x-matroska,.mp4,.webm,.mov,.3gp,.mkv',
  'image-or-pdf': 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf',
  pdf: 'application/pdf,.pdf',
};

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
