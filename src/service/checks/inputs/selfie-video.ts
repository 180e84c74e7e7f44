import {
  MAX_VIDEO_DECODED_PIXELS,
  MAX_VIDEO_PIXELS,
  MAX_VIDEO_SECONDS,
  MAX_VIDEO_SIDE,
} from '@/shared/limits';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';
import { videoChallenge, videoFaces } from '../face-checks';
import type { CheckOutcome, StoredFile } from '@/checks/inputs/node/types';
import { checkContainer } from '@/checks/video/node/video';
import {
  applyMarkers,
  fail,
  fileMarkers,
  guarded,
  markerFamilies,
  markerMessages,
  markerOutcome,
  pass,
  type MarkerOption,
} from '@/checks/inputs/node/input-outcome';

/**
 * The words a person is told when a challenge attempt fails: plain, and never a measured figure
 * or a pass mark (they would tell someone who replays a clip how near it came). What was seen,
 * and when, is kept for staff in `facts.challenge.reason`.
 */
export const challengeRefusals = {
  notPerformed:
    'The movements asked were not seen at the moments they were asked. Record again, following the screen.',
  unasked:
    'A movement that was not asked was seen. Record again and make only the movements the screen asks, when it asks them.',
  tooLong: 'This recording is not the one made for this challenge. Record again.',
  noFace: 'Your face was not seen during much of the recording. Record again, facing the camera.',
  multipleFaces: 'More than one face was seen in the recording. Record again, alone in the picture.',
} as const;

/** The verification's challenge for this video: the current attempt, or none left. */
export interface VideoChallenge {
  /** Null when the stored challenge could not be read (then `spent`). */
  challenge: LivenessChallenge | null;
  /** Every attempt was used (or the stored challenge could not be read): the video goes to a review. */
  spent: boolean;
}

/**
 * A liveness video: a whole container, a face in its frames (never two), and, when the
 * verification has an active challenge, exactly the asked movements at their cues. The spec has
 * no code for a challenge left undone: it is the "not taken properly" of the selfie codes. The
 * last attempt's failure is not refused: the video is kept with the failure in its facts, and
 * the liveness step then sends the verification to a review (as when no attempt is left).
 */
export function checkSelfieVideo(
  file: StoredFile,
  asked?: VideoChallenge | null,
  options: MarkerOption = {},
): Promise<CheckOutcome> {
  return guarded('voiceVideo.conversionFailed', async (facts) => {
    const container = await checkContainer(file.path, file.format);
    if (!container.ok) return fail('voiceVideo.conversionFailed', container.reason, facts);
    if (container.durationSeconds !== undefined)
      facts.durationSeconds = Math.round(container.durationSeconds * 100) / 100;
    const beyond = beyondVideoLimits(container);
    if (beyond) return fail('voiceVideo.conversionFailed', beyond, facts);
    const scenario = applyMarkers(await fileMarkers(file.path, options.markers), markerFamilies.video, facts);
    if (scenario) return markerOutcome(scenario, facts);
    const run = { owner: options.verification, signal: options.signal };
    const verdict = await videoFaces(file.path, facts, run);
    if (verdict) return fail(`voiceVideo.${verdict}`, markerMessages[`voiceVideo.${verdict}`] ?? '', facts);
    if (!asked) return pass(facts);
    const { challenge } = asked;
    const about = {
      actions: [...(challenge?.actions ?? [])],
      ...(challenge ? { attempt: challenge.attempt } : {}),
    };
    if (asked.spent || !challenge) {
      facts.challenge = { ...about, result: 'failed', reason: 'no attempt of the challenge was left' };
      return pass(facts);
    }
    const done = await videoChallenge(file.path, challenge, facts, { run });
    if (done.ok === 'unchecked') {
      facts.challenge = { ...about, result: 'unchecked', reason: done.reason };
      return pass(facts);
    }
    if (done.ok) {
      facts.challenge = { ...about, result: 'passed' };
      return pass(facts);
    }
    facts.challenge = { ...about, result: 'failed', reason: done.reason };
    if (challenge.attempt >= challenge.attempts) return pass(facts);
    const words = challengeRefusals[done.code];
    return done.code === 'noFace' || done.code === 'multipleFaces'
      ? fail(`voiceVideo.${done.code}`, words, facts)
      : fail('selfiePhoto.validationError', words, facts);
  });
}

/**
 * What the container's header declares beyond the service's bounds (decoding is never tried on
 * it): a length over MAX_VIDEO_SECONDS or of zero, frames over MAX_VIDEO_SIDE or MAX_VIDEO_PIXELS,
 * or more pixels in all its frames than MAX_VIDEO_DECODED_PIXELS.
 */
function beyondVideoLimits(container: {
  durationSeconds?: number;
  width?: number;
  height?: number;
  frames?: number;
}) {
  const { durationSeconds, width, height, frames } = container;
  if (durationSeconds !== undefined && !(durationSeconds > 0)) return 'the video declares a length of zero';
  if (durationSeconds !== undefined && durationSeconds > MAX_VIDEO_SECONDS)
    return `the video declares ${Math.round(durationSeconds)} s; at most ${MAX_VIDEO_SECONDS} s are accepted`;
  if (
    width !== undefined &&
    height !== undefined &&
    (width > MAX_VIDEO_SIDE || height > MAX_VIDEO_SIDE || width * height > MAX_VIDEO_PIXELS)
  )
    return `the video declares frames of ${width}×${height}; at most ${MAX_VIDEO_SIDE} px a side are accepted`;
  if (
    width !== undefined &&
    height !== undefined &&
    frames !== undefined &&
    frames * width * height > MAX_VIDEO_DECODED_PIXELS
  )
    return `the video declares ${frames} frames of ${width}×${height}, more than the service decodes in one video (${MAX_VIDEO_SECONDS} s at 1080p and 30 frames a second)`;
  return null;
}
