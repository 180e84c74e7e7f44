import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfieVerdict, type FaceJudgement } from '@/shared/face-rules';
import { detectFaces } from './face-reader';
import { storedDescriptor } from './faces';
import type { RgbPixels } from './image';
import type { InputFacts } from './types';

/** Frames of a liveness video that are looked at (evenly spread over its length). */
export const VIDEO_FRAMES = 3;
/** The frame extraction may take this long before the video counts as unreadable for faces. */
const FRAME_TIMEOUT_MS = 15_000;

function record(facts: InputFacts, judgement: FaceJudgement) {
  facts.faces = judgement.faces.length;
  if (judgement.eyeOpenness !== undefined)
    facts.eyeOpenness = Math.round(judgement.eyeOpenness * 1000) / 1000;
}

/** The selfie rule (exactly one face, eyes open), on the file or its decoded pixels. */
export async function selfieFaces(image: string | RgbPixels, facts: InputFacts) {
  const judgement = await detectFaces(image, 'selfie');
  record(facts, judgement);
  return selfieVerdict(judgement);
}

/** A document portrait: noFace when there is none (the largest face is the holder's). */
export async function documentFaces(image: string | RgbPixels, facts: InputFacts): Promise<'noFace' | null> {
  const judgement = await detectFaces(image, 'count');
  record(facts, judgement);
  return judgement.faces.length === 0 ? 'noFace' : null;
}

/** The descriptor of the largest face in an image, rounded for storage; undefined when it has none. */
export async function faceDescriptorOf(path: string) {
  const embedding = (await detectFaces(path, 'descriptor')).faces[0]?.embedding;
  return embedding?.length ? storedDescriptor(embedding) : undefined;
}

/** ffmpeg from FFMPEG_PATH or PATH; the service runs without it (then videos are not looked into). */
const ffmpeg = () => process.env.FFMPEG_PATH || 'ffmpeg';

/** Frames spread over a video, as PNG files in dir (ffmpeg; throws when it is missing or fails). */
export async function extractFrames(path: string, dir: string, durationSeconds: number | undefined) {
  const fps = durationSeconds && durationSeconds > 0 ? VIDEO_FRAMES / durationSeconds : 1;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-i',
    path,
    '-an',
    '-vf',
    `fps=${fps.toFixed(4)},scale=640:640:force_original_aspect_ratio=decrease`,
    '-frames:v',
    String(VIDEO_FRAMES),
    join(dir, 'frame-%d.png'),
  ];
  await new Promise<void>((resolve, reject) => {
    execFile(ffmpeg(), args, { timeout: FRAME_TIMEOUT_MS }, (error) => (error ? reject(error) : resolve()));
  });
  // In time order (frame-%d), so that a frame's index names the same frame when taken again.
  return (await readdir(dir))
    .filter((f) => f.endsWith('.png'))
    .sort((a, b) => frameNumber(a) - frameNumber(b))
    .map((f) => join(dir, f));
}

const frameNumber = (name: string) => Number(/(\d+)\.png$/.exec(name)?.[1] ?? 0);

let ffmpegMissing = false;

/**
 * Faces in sampled frames of a liveness video: noFace when no frame has one, multipleFaces when a
 * frame has more than one. Undefined when frames cannot be taken (no ffmpeg): the video is then
 * judged by its container alone.
 */
export async function videoFaces(
  path: string,
  facts: InputFacts,
): Promise<'noFace' | 'multipleFaces' | null> {
  if (ffmpegMissing) return null;
  const dir = await mkdtemp(join(tmpdir(), 'idv-frames-'));
  try {
    let frames: string[];
    try {
      frames = await extractFrames(path, dir, facts.durationSeconds);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') ffmpegMissing = true;
      return null;
    }
    if (frames.length === 0) return null;
    let most = 0;
    for (const [index, frame] of frames.entries()) {
      const judgement = await detectFaces(frame, 'count');
      most = Math.max(most, judgement.faces.length);
      // The frame whose face the face match will use (its descriptor is taken at processing).
      if (judgement.faces.length === 1 && facts.faceFrame === undefined) facts.faceFrame = index;
    }
    facts.faces = most;
    if (most === 0) return 'noFace';
    if (most > 1) return 'multipleFaces';
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
