// Liveness video samples: a drawn selfie swaying for 3 s, encoded by ffmpeg in every container the
// service takes (bit-exact, so a run reproduces the committed files).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorCode } from '@/shared/error-codes';
import type { FaceLook } from '../../e2e/fixtures/drawn-face';
import { render } from './drawing';
import { markerTexts } from './markers';
import { add, outDir, save, work } from './output';
import { selfieSvg } from './selfies';

const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '32', '-pix_fmt', 'yuv420p'];
const vp8 = ['-c:v', 'libvpx', '-b:v', '200k', '-deadline', 'good', '-cpu-used', '4', '-pix_fmt', 'yuv420p'];
/** ffmpeg output options per container variant; the streamed ones mimic a browser's MediaRecorder. */
const videoVariants = {
  mp4: [...x264, '-movflags', '+faststart', '-f', 'mp4'],
  mov: [...x264, '-f', 'mov'],
  '3gp': [...x264, '-f', '3gp'],
  mkv: [...x264, '-f', 'matroska'],
  webm: [...vp8, '-f', 'webm'],
  // Fragmented MP4 (Safari's MediaRecorder): an empty moov, then moof+mdat pairs.
  'mp4-fragmented': [...x264, '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4'],
  // Written to a pipe, so Segment and Clusters have unknown sizes (Chrome's MediaRecorder).
  'webm-streamed': [...vp8, '-f', 'webm'],
};

async function video(
  file: string,
  faces: FaceLook[] | 'none',
  variant: keyof typeof videoVariants,
  code: ErrorCode | null,
  note: string,
  marked = false,
) {
  const frame = join(work, `${file}.png`);
  writeFileSync(frame, await render(selfieSvg(faces)).resize({ width: 360, height: 480 }).png().toBuffer());
  const metadata = markerTexts(marked ? (code ?? undefined) : undefined);
  const input = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-loop',
    '1',
    '-framerate',
    '15',
    '-i',
    frame,
    '-t',
    '3',
  ];
  const filter = ['-vf', "rotate='0.05*sin(2*PI*t/1.5)':fillcolor=0xa8dadc,format=yuv420p"];
  const exact = ['-threads', '1', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-map_metadata', '-1'];
  const tags = metadata.length ? ['-metadata', `comment=${metadata.join(' ')}`] : [];
  const args = [...input, ...filter, ...exact, ...tags, ...videoVariants[variant]];
  if (variant === 'webm-streamed') {
    save(file, execFileSync('ffmpeg', [...args, 'pipe:1'], { maxBuffer: 20 * 1024 * 1024 }));
  } else {
    execFileSync('ffmpeg', [...args, join(outDir, file)]);
  }
  add({ file, field: 'video', inputType: 'selfie-video', expectedCode: code, note });
}

export async function writeVideos() {
  await video('liveness.mp4', [{}], 'mp4', null, '3 s liveness video, one face: clean (flow mx-ine-full)');
  await video('liveness.webm', [{}], 'webm', null, '3 s liveness video as WebM (VP8), clean');
  await video('liveness.mov', [{}], 'mov', null, 'QuickTime container, clean');
  await video('liveness.3gp', [{}], '3gp', null, '3GP container, clean');
  await video('liveness.mkv', [{}], 'mkv', null, 'Matroska container, clean');
  await video(
    'liveness-fragmented.mp4',
    [{}],
    'mp4-fragmented',
    null,
    'fragmented MP4 as Safari records it, clean',
  );
  await video(
    'liveness-streamed.webm',
    [{}],
    'webm-streamed',
    null,
    'WebM with unknown-size Segment and Clusters, as Chrome records it',
  );
  await video(
    'video-no-face.mp4',
    'none',
    'mp4',
    'voiceVideo.noFace',
    'nobody in the video (sampled frames)',
  );
  await video(
    'video-multiple-faces.webm',
    [{}, {}],
    'webm',
    'voiceVideo.multipleFaces',
    'two faces (sampled frames)',
  );
  for (const [ext, note] of [
    ['mp4', 'liveness.mp4 cut at 60%: mdat runs past the end'],
    ['webm', 'liveness.webm cut at 60%: the Segment runs past the end'],
  ]) {
    const whole = readFileSync(join(outDir, `liveness.${ext}`));
    const file = `video-corrupted.${ext}`;
    save(file, whole.subarray(0, Math.floor(whole.length * 0.6)));
    add({
      file,
      field: 'video',
      inputType: 'selfie-video',
      expectedCode: 'voiceVideo.conversionFailed',
      note,
    });
  }
}
