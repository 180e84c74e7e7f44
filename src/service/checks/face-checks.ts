import { createHash } from 'node:crypto';
import { insideQuad, type Point } from '@/checks/document/document-outline';
import type { ShareBox } from '@/checks/document/selfie-document';
import { DOCUMENT_MAX_FACES, selfieVerdict, type FaceJudgement } from '@/checks/face/face-rules';
import {
  blinkWindows,
  CHALLENGE_MAX_MS,
  failedAlready,
  CLIP_EXTRA_MS,
  CUE_EARLY_MS,
  CUE_WINDOW_MS,
  headYaw,
  judgeChallenge,
  type ChallengeFrame,
  type ChallengeVerdict,
  type TimedFrame,
} from '@/checks/video/liveness-challenge';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import { detectFaces } from './face-reader';
import { storedDescriptor } from '@/checks/face/node/faces';
import { FrameReadError, runFfmpeg, type FrameRun } from './frame-reader';
import type { FacePixels } from '@/checks/image/node/image';
import type { InputFacts, NotCheckedKey } from '@/checks/inputs/node/types';

/** Frames of a liveness video that are looked at (evenly spread over its length). */
export const VIDEO_FRAMES = 3;

function record(facts: InputFacts, judgement: FaceJudgement) {
  facts.faces = judgement.faces.length;
  if (judgement.eyeOpenness !== undefined)
    facts.eyeOpenness = Math.round(judgement.eyeOpenness * 1000) / 1000;
  if (judgement.cover) facts.faceCover = judgement.cover;
}

/** The selfie rule (exactly one face, no dark lenses, no mask, eyes open), on the file or its decoded pixels. */
export async function selfieFaces(image: string | FacePixels, facts: InputFacts) {
  return (await selfieFaceLook(image, facts)).verdict;
}

/** `selfieFaces` with the largest face's box as shares of the image's width and height. */
export async function selfieFaceLook(image: string | FacePixels, facts: InputFacts) {
  const judgement = await detectFaces(image, 'selfie', { crowd: true });
  record(facts, judgement);
  const first = judgement.faces[0];
  const face: ShareBox | undefined = first && {
    x: first.box[0] / judgement.width,
    y: first.box[1] / judgement.height,
    w: first.box[2] / judgement.width,
    h: first.box[3] / judgement.height,
  };
  return { verdict: selfieVerdict(judgement), face };
}

/**
 * A document portrait: noFace when there is none (the largest face is the holder's); a crowd when
 * more faces count than a card shows (its portrait and a ghost image). With `inside` (the found
 * document's corners as shares of the image's sides) only the faces whose centre is on the
 * document count: a face beside it is not its portrait; with `minScore`, only faces the detector is
 * that sure of (a claimed back's: BACK_PORTRAIT_MIN_SCORE).
 */
export async function documentFaces(
  image: string | FacePixels,
  facts: InputFacts,
  inside?: Point[],
  minScore = 0,
): Promise<'noFace' | 'crowd' | null> {
  return (await documentPortrait(image, facts, inside, minScore)).verdict;
}

/**
 * `documentFaces` with where the portrait (the largest face counted) is: its centre as shares of
 * the image's width and height, for template matching, and its box in the same shares.
 */
export async function documentPortrait(
  image: string | FacePixels,
  facts: InputFacts,
  inside?: Point[],
  minScore = 0,
): Promise<{ verdict: 'noFace' | 'crowd' | null; box?: { x: number; y: number; w: number; h: number } }> {
  const reading = await detectFaces(image, 'count', { crowd: true });
  const judgement = {
    ...reading,
    faces: reading.faces.filter(
      ({ box: [x, y, w, h], score }) =>
        score >= minScore &&
        (!inside || insideQuad({ x: (x + w / 2) / reading.width, y: (y + h / 2) / reading.height }, inside)),
    ),
  };
  record(facts, judgement);
  const largest = judgement.faces[0];
  const box = largest && {
    x: largest.box[0] / reading.width,
    y: largest.box[1] / reading.height,
    w: largest.box[2] / reading.width,
    h: largest.box[3] / reading.height,
  };
  if (judgement.faces.length === 0) return { verdict: 'noFace' };
  return { verdict: judgement.faces.length > DOCUMENT_MAX_FACES ? 'crowd' : null, box };
}

/** The descriptor of the largest face in an image, rounded for storage; undefined when it has none. */
export async function faceDescriptorOf(image: string | FacePixels) {
  const embedding = (await detectFaces(image, 'descriptor')).faces[0]?.embedding;
  return embedding?.length ? storedDescriptor(embedding) : undefined;
}

/**
 * Most bytes the frames of one video may take on ffmpeg's output (3 frames of 640×640 RGB are
 * 3.7 MB; the challenge's 96 frames of 360×360 at most 37 MB).
 */
const FRAMES_MAX_BYTES = 40 * 1024 * 1024;

/** How frames are taken: the face checks' few large ones, or the challenge's many small ones. */
export interface FrameSampling {
  /** Frames per second of video (else VIDEO_FRAMES spread over its length). */
  fps?: number;
  max: number;
  /** Longest side in pixels. */
  side: number;
  /** Only the frames of this span of the video, in seconds. */
  span?: { from: number; to: number };
}

/**
 * The challenge's frames: 4 a second of up to the longest challenge and the extra a recording may
 * run (`CHALLENGE_MAX_MS`, `CLIP_EXTRA_MS`), at 360 px, where the face of a front camera still
 * spans ~150 px for the mesh (which works at 192 px). Of them, 2 a second are looked at (a turn is
 * held for a second, and shows in one frame of 2 a second at least) and all 4 in the asked
 * windows; where an asked eye closing was missed and would make the clip
 * pass (`blinkWindows`), its window again at up to `CLOSER_LOOK_FPS`. A recording that a loaded
 * browser made at 5–10 frames a second (gaps up to 0.75 s measured) can hide a 0.4 s closing
 * between the frames of 4 a second; the closer look reads each frame such a recording kept. Each
 * frame looked at costs a selfie's detection (detector, mesh, iris): 30 frames of the test clip
 * took 14–17 s with the machine's load at 38 on 2 cores, so the clip is read at 2 a second where
 * no closing is asked, and the reading stops as soon as the clip has failed (`failedAlready`).
 * Spontaneous blinks (0.1–0.3 s) mostly fall between those frames, as they
 * should: a movement seen where nothing is asked fails the attempt.
 */
export const CHALLENGE_SAMPLING: FrameSampling = {
  fps: 4,
  max: Math.ceil(((CHALLENGE_MAX_MS + CLIP_EXTRA_MS) / 1000 + 1) * 4),
  side: 360,
};
/** Outside the windows of asked eye closings, every this many of the challenge's frames is looked at. */
const CHALLENGE_COARSE_STEP = 2;
/** Inside them (their span, and this much after it, where a late closing shows) every frame. */
const WINDOW_AFTER_MS = 500;
/** The closer look at a missed eye closing's window: frames a second, and at most this many frames. */
const CLOSER_LOOK_FPS = 24;
const CLOSER_LOOK_MAX = 72;
/**
 * Frames of a closer look that go to the face worker (the ones FFmpeg repeated cost nothing): a
 * recording of 5–10 frames a second has at most this many new ones in a window, so a missed
 * closing costs at most this much more.
 */
const CLOSER_LOOK_MAX_LOOKS = 24;

/** The images of a stream of binary PPM files (`P6 width height 255`, then RGB bytes), as ffmpeg writes them. */
export function ppmFrames(bytes: Buffer): FacePixels[] {
  const frames: FacePixels[] = [];
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/;
  let at = 0;
  while (at < bytes.length) {
    const match = header.exec(bytes.subarray(at, at + 32).toString('latin1'));
    if (!match) throw new Error('ffmpeg wrote something that is not a PPM frame');
    const width = Number(match[1]);
    const height = Number(match[2]);
    const start = at + match[0].length;
    const end = start + width * height * 3;
    if (end > bytes.length) throw new Error('ffmpeg wrote a truncated PPM frame');
    // A copy per frame: each one's buffer is moved to the face worker on its own.
    frames.push({ data: new Uint8Array(bytes.subarray(start, end)), width, height, channels: 3 });
    at = end;
  }
  return frames;
}

/**
 * Frames spread over a video, in time order, as RGB pixels at most 640 px a side: ffmpeg writes
 * them to a pipe as PPM (no image files, no PNG to encode and decode again). Throws when ffmpeg is
 * missing or fails.
 */
export async function videoFrames(
  path: string,
  durationSeconds: number | undefined,
  sampling: FrameSampling = { max: VIDEO_FRAMES, side: 640 },
  run: FrameRun = {},
): Promise<FacePixels[]> {
  const fps = sampling.fps ?? (durationSeconds && durationSeconds > 0 ? sampling.max / durationSeconds : 1);
  const side = sampling.side;
  const output = await runFfmpeg(
    path,
    [
      '-an',
      '-vf',
      `${sampling.span ? `trim=start=${sampling.span.from.toFixed(3)}:end=${sampling.span.to.toFixed(3)},` : ''}fps=${fps.toFixed(4)},scale=${side}:${side}:force_original_aspect_ratio=decrease`,
      '-frames:v',
      String(sampling.max),
      '-f',
      'image2pipe',
      '-c:v',
      'ppm',
    ],
    FRAMES_MAX_BYTES,
    run,
  );
  return ppmFrames(output);
}

/** Why a check could not run, for staff: the error's own words (never the file's contents). */
export const whyNotRun = (error: unknown) =>
  error instanceof FrameReadError || error instanceof Error ? error.message : 'the check failed';

/**
 * Faces in sampled frames of a liveness video: noFace when no frame has one, multipleFaces when a
 * frame has more than one. When the frames cannot be taken or looked at (FFmpeg failed or ran out
 * of time, the face worker died), the video is not refused for it but marked not checked with the
 * reason (`facts.notChecked.faces`): processing then sends the verification to a review.
 */
export async function videoFaces(
  path: string,
  facts: InputFacts,
  run: FrameRun = {},
): Promise<'noFace' | 'multipleFaces' | null> {
  let most = 0;
  try {
    const frames = await videoFrames(path, facts.durationSeconds, undefined, run);
    if (frames.length === 0) throw new FrameReadError('FFmpeg found no video frame');
    for (const [index, frame] of frames.entries()) {
      const judgement = await detectFaces(frame, 'count');
      most = Math.max(most, judgement.faces.length);
      // The frame whose face the face match will use (its descriptor is taken at processing).
      if (judgement.faces.length === 1 && facts.faceFrame === undefined) facts.faceFrame = index;
    }
  } catch (error) {
    markNotChecked(facts, 'faces', `the video's frames could not be looked at: ${whyNotRun(error)}`);
    return null;
  }
  facts.faces = most;
  if (most === 0) return 'noFace';
  if (most > 1) return 'multipleFaces';
  return null;
}

/** Records that a check of this input could not run, and why (the first reason of each check stays). */
export function markNotChecked(facts: InputFacts, check: NotCheckedKey, reason: string) {
  facts.notChecked = { [check]: reason, ...facts.notChecked };
}

/** What the challenge needs of one frame, from the face worker (detector, mesh, iris). */
async function challengeFrame(frame: FacePixels): Promise<ChallengeFrame> {
  const judgement = await detectFaces(frame, 'selfie');
  const first = judgement.faces[0];
  return {
    faces: judgement.faces.length,
    ...(first ? { yaw: headYaw(first.mesh) } : {}),
    ...(judgement.eyeOpenness !== undefined ? { eyeOpenness: judgement.eyeOpenness } : {}),
  };
}

/** A digest of a frame's pixels, to know the frames FFmpeg repeated to keep its rate. */
const pixelsDigest = (f: FacePixels) =>
  createHash('sha1').update(`${f.width}x${f.height}:`).update(f.data).digest('hex');

/** Frames looked at for the challenge: how many FFmpeg gave and how many went to the face worker. */
export interface ChallengeCost {
  decoded: number;
  detected: number;
}

/** Readings kept across calls by a frame's digest (a benchmark judging one clip many times). */
export type ReadingCache = Map<string, ChallengeFrame>;

/**
 * The active challenge read from a video's frames (`judgeChallenge` of the shared rules): each
 * looked-at frame's face count, head yaw and eye openness (detector, mesh and iris, as for a
 * selfie), at its time in the clip. The whole clip is read (a movement that was not asked fails
 * it, wherever it is), densely in the asked windows; then, only when asked eye closings are all
 * that is missing, their windows closer. A frame FFmpeg repeated (a recording with fewer frames
 * than the rate) reuses its twin's reading. `unchecked` when the frames cannot be taken: never a
 * pass (the liveness step then reports it).
 */
export async function videoChallenge(
  path: string,
  challenge: LivenessChallenge,
  facts: InputFacts,
  {
    cost = { decoded: 0, detected: 0 },
    twins = new Map(),
    run = {},
  }: { cost?: ChallengeCost; twins?: ReadingCache; run?: FrameRun } = {},
): Promise<ChallengeVerdict | { ok: 'unchecked'; reason: string }> {
  /** Readings by the frame's time in the video (ms). */
  const read = new Map<number, ChallengeFrame>();
  const timed = (): TimedFrame[] => [...read.entries()].map(([timeMs, f]) => ({ ...f, timeMs }));
  const look = async (timeMs: number, frame: FacePixels, digest: string) => {
    const twin = twins.get(digest);
    if (!twin) cost.detected++;
    const reading = twin ?? (await challengeFrame(frame));
    twins.set(digest, reading);
    read.set(timeMs, reading);
  };
  // Every frame in the asked windows: a closing may be short, and the rest between two turns the
  // same way must be seen for them to count as two (a look at rest between them separates them).
  const inAskedWindow = (timeMs: number) =>
    challenge.cuesMs.some(
      (cue) => timeMs >= cue - CUE_EARLY_MS && timeMs <= cue + CUE_WINDOW_MS + WINDOW_AFTER_MS,
    );
  try {
    const rate = CHALLENGE_SAMPLING.fps ?? 1;
    const frames = await videoFrames(path, facts.durationSeconds, CHALLENGE_SAMPLING, run);
    cost.decoded = frames.length;
    if (frames.length === 0) throw new FrameReadError('FFmpeg found no video frame');
    // Taken before any frame's pixels move to the face worker.
    const digests = frames.map(pixelsDigest);
    for (const [i, frame] of frames.entries()) {
      const timeMs = Math.round((i * 1000) / rate);
      if (i % CHALLENGE_COARSE_STEP !== 0 && !inAskedWindow(timeMs)) continue;
      await look(timeMs, frame, digests[i]);
      if (failedAlready(timed(), challenge, timeMs)) return judgeChallenge(timed(), challenge);
    }
    const spans = blinkWindows(timed(), challenge) ?? [];
    for (const span of spans) {
      const from = Math.max(0, span.fromMs) / 1000;
      const to = span.toMs / 1000;
      const fps = Math.min(CLOSER_LOOK_FPS, CLOSER_LOOK_MAX / (to - from));
      const more = await videoFrames(
        path,
        facts.durationSeconds,
        {
          fps,
          max: CLOSER_LOOK_MAX,
          side: CHALLENGE_SAMPLING.side,
          span: { from, to },
        },
        run,
      );
      cost.decoded += more.length;
      const known = [...read.keys()];
      const candidates = more
        .map((frame, i) => ({
          frame,
          timeMs: Math.round((from + i / fps) * 1000),
          digest: pixelsDigest(frame),
        }))
        .filter(({ timeMs }) => !read.has(timeMs))
        // The frames farthest from any read one first, the ones FFmpeg repeated for free.
        .map((c) => ({ ...c, gap: Math.min(...known.map((t) => Math.abs(t - c.timeMs))) }))
        .sort((a, b) => Number(twins.has(b.digest)) - Number(twins.has(a.digest)) || b.gap - a.gap);
      let looks = 0;
      for (const { frame, timeMs, digest } of candidates) {
        if (!twins.has(digest) && looks++ >= CLOSER_LOOK_MAX_LOOKS) continue;
        await look(timeMs, frame, digest);
      }
    }
  } catch (error) {
    return { ok: 'unchecked', reason: `the frames could not be looked at: ${whyNotRun(error)}` };
  }
  return judgeChallenge(timed(), challenge);
}
