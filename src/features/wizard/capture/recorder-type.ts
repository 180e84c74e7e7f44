import { extensionOf, type FileFormat } from '@/shared/file-format';

// WebM with VP8/VP9 is what Chromium and Firefox record; Safari records MP4 only.
const WITH_AUDIO = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm', 'video/mp4'];
const VIDEO_ONLY = ['video/webm;codecs=vp8', 'video/webm;codecs=vp9', 'video/webm', 'video/mp4'];

/** The MediaRecorder type to ask for; undefined lets the browser choose. */
export function pickRecorderType(
  withAudio: boolean,
  isSupported: (mime: string) => boolean,
): string | undefined {
  return (withAudio ? WITH_AUDIO : VIDEO_ONLY).find((mime) => isSupported(mime));
}

const formatOfMime: Record<string, FileFormat> = {
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-matroska': 'mkv',
};

/** A name whose extension matches what was recorded. */
export function recordingFileName(mime: string): string {
  const format = formatOfMime[mime.split(';')[0].trim().toLowerCase()] ?? 'webm';
  return `selfie-video.${extensionOf[format]}`;
}
