import { sniffFormat, videoFormats, type FileFormat } from '@/shared/file-format';
import { MAX_FILE_BYTES, MAX_VIDEO_SECONDS } from '@/shared/limits';
import type { ClientCheckCode } from './check-codes';
import { readHead } from './read-head';

export type VideoCheckResult =
  { ok: true; format: FileFormat; durationSeconds: number | null } | { ok: false; reason: ClientCheckCode };

/** How long to wait for the browser to read a video's length before letting the service judge it. */
const METADATA_TIMEOUT_MS = 5000;

/** Format by bytes, 50 MB, and MAX_VIDEO_SECONDS when the browser can tell the length. */
export async function checkVideo(file: Blob): Promise<VideoCheckResult> {
  const format = sniffFormat(await readHead(file));
  if (!format || !videoFormats.includes(format)) return { ok: false, reason: 'client.videoFormat' };
  if (file.size > MAX_FILE_BYTES) return { ok: false, reason: 'client.tooBig' };
  const durationSeconds = await videoDuration(file);
  if (durationSeconds !== null && durationSeconds > MAX_VIDEO_SECONDS) {
    return { ok: false, reason: 'client.videoTooLong' };
  }
  return { ok: true, format, durationSeconds };
}

/**
 * The length from the browser's own reader; null when it cannot play the format (the service still
 * checks the container). MediaRecorder WebM files have no length in their header: seeking far past
 * the end makes the browser scan for it.
 */
export function videoDuration(file: Blob): Promise<number | null> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    let done = false;
    const finish = (value: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), METADATA_TIMEOUT_MS);
    let seeking = false;
    video.addEventListener('loadedmetadata', () => {
      if (Number.isFinite(video.duration)) return finish(video.duration);
      seeking = true;
      video.currentTime = Number.MAX_SAFE_INTEGER;
    });
    // After the far seek the browser has scanned to the last frame and knows the real length.
    video.addEventListener('timeupdate', () => {
      if (seeking && Number.isFinite(video.duration)) finish(video.duration);
    });
    video.addEventListener('error', () => finish(null));
    video.preload = 'metadata';
    video.muted = true;
    video.src = url;
  });
}
