import type { ChallengeAction, LivenessChallenge } from '@/shared/contract/liveness-challenge';

/**
 * The active liveness challenge: a random run of head turns and eye closings, each asked at a
 * moment of the recording that the service chose (its cue), never the browser. The wizard shows
 * each cue at its time while it records; the service then looks in the recorded frames for the
 * asked movements, each starting in a short window after its cue, and for nothing else: a
 * movement that was not asked (a turn the other way, an extra turn or eye closing, one out of its
 * time) fails the attempt. A clip recorded beforehand cannot know when, what or how many
 * movements will be asked, and one that shows many movements to cover several challenges shows
 * movements that were not asked. The rules that read a turn or a closed eye from the face mesh are
 * here, once, for both sides of the wire.
 *
 * An extension of the hosted API: a verification from a service that sets no challenge records
 * and checks its video as before.
 */

/**
 * A movement may start this long before its cue: the recording's first frame comes a little after
 * the recorder was started (its clock is the clip's), so the clip's time runs a little behind the
 * cue the wizard showed. Shorter than anyone reacts to a cue (~0.3 s at the very least).
 */
export const CUE_EARLY_MS = 300;
/**
 * And it must start within this long after its cue: reading a cue the person was told before the
 * recording (~0.5–1 s), then turning or closing the eyes (a turn crosses the mark in ~0.3 s), with
 * room for a busy phone that shows the cue late. Short against the spread of the cues (the lead-in
 * and the pauses below): a movement recorded at a fixed time falls in few challenges' windows.
 */
export const CUE_WINDOW_MS = 2000;
/** The first cue comes this long after the recording starts (random in the span): the head's rest is read before it. */
export const LEAD_IN_MS = { min: 1000, max: 4000 } as const;
/** Between the end of one action's window and the next cue (random in the span). */
export const PAUSE_MS = { min: 200, max: 2500 } as const;
/** The recording goes on this long after the last window, so that the clip holds the last movement. */
export const TAIL_MS = 600;
/**
 * Actions per challenge and how often each count is chosen: more actions make a clip that covers
 * them rarer, fewer keep the recording short (2: ~6–10 s, 4: ~12–20 s).
 */
const ACTION_COUNTS = [
  { count: 2, share: 0.25 },
  { count: 3, share: 0.4 },
  { count: 4, share: 0.35 },
] as const;
/** Attempts a verification has; after the last one fails the video is kept for a review. */
export const CHALLENGE_ATTEMPTS = 3;
/** Longest recording a challenge can ask for (4 actions, the longest lead-in and pauses), in ms. */
export const CHALLENGE_MAX_MS = LEAD_IN_MS.max + 4 * CUE_WINDOW_MS + 3 * PAUSE_MS.max + TAIL_MS;

const pick = <T>(random: () => number, items: readonly T[]) =>
  items[Math.min(items.length - 1, Math.floor(random() * items.length))];
const between = (random: () => number, span: { min: number; max: number }) =>
  Math.round((span.min + random() * (span.max - span.min)) / 10) * 10;

/**
 * A random challenge: 2–4 actions of turnLeft, turnRight and blink (at least one turn: eyes that
 * close now and then prove less than a head that turns as asked), each with its cue after a random
 * lead-in and random pauses. `random` gives [0, 1) (the service's from crypto.randomInt).
 */
export function chooseChallenge(random: () => number, attempt = 1): LivenessChallenge {
  let roll = random();
  const count = ACTION_COUNTS.find((c) => (roll -= c.share) < 0)?.count ?? 4;
  let actions: ChallengeAction[];
  do {
    actions = Array.from({ length: count }, () => pick(random, ['turnLeft', 'turnRight', 'blink'] as const));
  } while (!actions.some((a) => a !== 'blink'));
  const cuesMs: number[] = [];
  for (let i = 0; i < count; i++)
    cuesMs.push(
      i === 0 ? between(random, LEAD_IN_MS) : cuesMs[i - 1] + CUE_WINDOW_MS + between(random, PAUSE_MS),
    );
  return { actions, cuesMs, attempt, attempts: CHALLENGE_ATTEMPTS };
}

/** How long the wizard records for a challenge, in ms: to the end of the last window and a tail. */
export const challengeLengthMs = (challenge: LivenessChallenge) =>
  (challenge.cuesMs.at(-1) ?? 0) + CUE_WINDOW_MS + TAIL_MS;
/**
 * A clip longer than its challenge by more than this is not the one the wizard recorded for it
 * (the recorder stops at the challenge's length, a little late on a busy phone).
 */
export const CLIP_EXTRA_MS = 2500;

/** Facemesh landmarks: nose tip, and the face's outline at the cheekbones (image left, image right). */
const NOSE_TIP = 1;
const OUTLINE_IMAGE_LEFT = 234;
const OUTLINE_IMAGE_RIGHT = 454;

/**
 * Head yaw as where the nose tip sits between the cheek outlines: 0 facing the camera, positive
 * when the person turns to their own left (the nose moves to the image's right in the unmirrored
 * camera frame), about ±0.5 in full profile. Undefined without the landmarks.
 */
export function headYaw(mesh: readonly (readonly [number, number, number?])[]): number | undefined {
  const nose = mesh[NOSE_TIP];
  const left = mesh[OUTLINE_IMAGE_LEFT];
  const right = mesh[OUTLINE_IMAGE_RIGHT];
  if (!nose || !left || !right) return undefined;
  const width = right[0] - left[0];
  if (width <= 0) return undefined;
  return (nose[0] - left[0]) / width - 0.5;
}

/**
 * A turn counts when the yaw moved this far from where the head rests, in the asked direction.
 * The drawn face of the challenge's fake camera (e2e/fixtures/camera/make-challenge-camera.ts)
 * measures 0.00–0.02 facing the camera and 0.26–0.34 turned by 0.9 of its drawn range, after a
 * VP8 recording (facemesh at 360 px, the service's frame size); by 0.6 it measured 0.09–0.20 (the
 * mesh reads the drawn turn unevenly), too near the mark for a test. A comfortable real turn of
 * ~25° moves the nose a quarter of the way to the cheek (≈0.15), so 0.1 asks for a visible turn,
 * not a profile.
 */
export const TURN_MIN_YAW_CHANGE = 0.1;
/**
 * And the turned head's own yaw must be this far on the asked side (the nose past the middle of
 * the face): a head held askew at rest that comes back to the camera has not turned the other
 * way. Facing the camera measures −0.02–0.02 (drawn) and a real head held a little askew stays
 * within a few hundredths.
 */
export const TURN_MIN_YAW = 0.05;
/**
 * A closing of the eyes counts when the eye openness of a frame drops under this share of the
 * clip's open eyes (its upper quartile): the person's own open eyes, as real open eyes measure
 * 0.27–0.36 and drawn ones 0.52–0.64 (face-rules.ts). The drawn face measures 0.55–0.63 open and
 * 0.13–0.17 closed after a VP8 recording at the service's 360 px frames (a share of 0.22–0.29);
 * turned by 0.9 its eyes measure 0.43–0.55 (0.7 and more of open), which is not a closing.
 */
export const BLINK_MAX_OPENNESS_SHARE = 0.65;
/** Share of the sampled frames that may show no face (turned heads lose the detector now and then). */
export const CHALLENGE_MAX_FRAMES_WITHOUT_FACE = 0.25;
/**
 * Readings of one movement with this little between them are one movement: a held turn read
 * just under the mark in one frame (or without a face in it) is not two turns. Shorter than
 * anyone turns away, back and away again.
 */
export const SAME_MOVEMENT_GAP_MS = 600;

/** What the check needs of one sampled frame. */
export interface ChallengeFrame {
  faces: number;
  yaw?: number;
  eyeOpenness?: number;
}

/** A sampled frame of a clip, at its time from the clip's start (ms). */
export interface TimedFrame extends ChallengeFrame {
  timeMs: number;
}

/** One movement seen in a clip: from the first to the last frame that shows it. */
export interface Movement {
  action: ChallengeAction;
  startMs: number;
  endMs: number;
}

export type ChallengeVerdict =
  | { ok: true }
  | { ok: false; code: 'noFace' | 'multipleFaces'; reason: string }
  /** The asked action `index` was not seen in its time. */
  | { ok: false; code: 'notPerformed'; index: number; action: ChallengeAction; reason: string }
  /** A movement was seen that was not asked then (another one, an extra one, one out of its time). */
  | { ok: false; code: 'unasked'; movement: Movement; reason: string }
  /** The clip runs well past the challenge's length: not the recording made for it. */
  | { ok: false; code: 'tooLong'; reason: string };

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** The median of some readings; undefined with none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The open eyes of a clip (or of the looks so far): the upper quartile of its eye openness. */
export const openEyesOf = (eyes: readonly number[]) => (eyes.length ? quantile(eyes, 0.75) : 0);

/** Where the head rests and how open the eyes are, against which a frame's movement is read. */
export interface Reference {
  restYaw: number | undefined;
  openEyes: number;
}

/**
 * The reference of a clip: the head's rest is the median yaw of the frames before the first cue
 * (the lead-in, where the person was asked to look at the camera), or of the whole clip when the
 * lead-in has fewer than 2 readings; the open eyes are the clip's.
 */
export function referenceOf(frames: readonly TimedFrame[], challenge: LivenessChallenge): Reference {
  const faces = frames.filter((f) => f.faces === 1);
  const yaws = (list: readonly TimedFrame[]) => list.flatMap((f) => (f.yaw === undefined ? [] : [f.yaw]));
  const leadIn = yaws(faces.filter((f) => f.timeMs < challenge.cuesMs[0] - CUE_EARLY_MS));
  return {
    restYaw: median(leadIn.length >= 2 ? leadIn : yaws(faces)),
    openEyes: openEyesOf(faces.flatMap((f) => (f.eyeOpenness === undefined ? [] : [f.eyeOpenness]))),
  };
}

/**
 * The movement one frame shows against the reference: a turn first (a turned head's far eye looks
 * narrower, which is no closing), then closed eyes; `rest` when it shows none, undefined without
 * exactly one face.
 */
export function frameMovement(frame: ChallengeFrame, ref: Reference): ChallengeAction | 'rest' | undefined {
  if (frame.faces !== 1) return undefined;
  if (frame.yaw !== undefined && ref.restYaw !== undefined) {
    const change = frame.yaw - ref.restYaw;
    if (change >= TURN_MIN_YAW_CHANGE && frame.yaw >= TURN_MIN_YAW) return 'turnLeft';
    if (change <= -TURN_MIN_YAW_CHANGE && frame.yaw <= -TURN_MIN_YAW) return 'turnRight';
  }
  if (frame.eyeOpenness !== undefined && frame.eyeOpenness <= ref.openEyes * BLINK_MAX_OPENNESS_SHARE)
    return 'blink';
  return 'rest';
}

/** The movements of a clip, in time order (frames in any order). */
export function movementsOf(frames: readonly TimedFrame[], ref: Reference): Movement[] {
  const movements: Movement[] = [];
  let last: Movement | undefined;
  // Whether a frame at rest came after `last`: two readings of one movement with none between
  // them are one movement however far apart they are (a busy phone's guide looks 0.8 s apart).
  let restSince = false;
  for (const frame of [...frames].sort((a, b) => a.timeMs - b.timeMs)) {
    const action = frameMovement(frame, ref);
    if (action === undefined) continue;
    if (action === 'rest') {
      restSince = true;
      if (last && frame.timeMs - last.endMs > SAME_MOVEMENT_GAP_MS) last = undefined;
      continue;
    }
    if (last?.action === action && (!restSince || frame.timeMs - last.endMs <= SAME_MOVEMENT_GAP_MS)) {
      last.endMs = frame.timeMs;
      restSince = false;
      continue;
    }
    last = { action, startMs: frame.timeMs, endMs: frame.timeMs };
    restSince = false;
    movements.push(last);
  }
  return movements;
}

/** The span of the clip (ms) in which action `index` must start. */
export const cueWindow = (challenge: LivenessChallenge, index: number) => ({
  fromMs: challenge.cuesMs[index] - CUE_EARLY_MS,
  toMs: challenge.cuesMs[index] + CUE_WINDOW_MS,
});

const ordinal = (i: number) => ['first', 'second', 'third', 'fourth'][i] ?? `${i + 1}th`;
const said: Record<ChallengeAction, string> = {
  turnLeft: 'turn to the left',
  turnRight: 'turn to the right',
  blink: 'eye closing',
};

/**
 * Movements against the asked ones: each asked action must be the next movement seen, starting in
 * its window; the first that is not decides (an asked one whose window passed with nothing in it
 * is not performed; anything else seen is unasked). The reasons are for staff: which movement and
 * when, never a measured figure or a pass mark.
 */
export function judgeMovements(
  movements: readonly Movement[],
  challenge: LivenessChallenge,
): ChallengeVerdict {
  let index = 0;
  const missing = (i: number): ChallengeVerdict => ({
    ok: false,
    code: 'notPerformed',
    index: i,
    action: challenge.actions[i],
    reason: `the ${ordinal(i)} movement asked (${said[challenge.actions[i]]}) was not seen in its time`,
  });
  for (const movement of movements) {
    if (index < challenge.actions.length) {
      const window = cueWindow(challenge, index);
      if (
        movement.action === challenge.actions[index] &&
        movement.startMs >= window.fromMs &&
        movement.startMs <= window.toMs
      ) {
        index++;
        continue;
      }
      // The asked window ended before this movement: it is the asked one that is missing.
      if (movement.startMs > window.toMs) return missing(index);
    }
    return {
      ok: false,
      code: 'unasked',
      movement,
      reason: `a ${said[movement.action]} was seen at ${(movement.startMs / 1000).toFixed(1)} s of the recording that was not asked then`,
    };
  }
  return index < challenge.actions.length ? missing(index) : { ok: true };
}

/**
 * The service's reading of a recorded clip: one face throughout (never two, rarely none), not much
 * longer than the challenge, and exactly the asked movements, each in its window after its cue.
 */
export function judgeChallenge(
  frames: readonly TimedFrame[],
  challenge: LivenessChallenge,
): ChallengeVerdict {
  const crowded = frames.find((f) => f.faces > 1);
  if (crowded)
    return {
      ok: false,
      code: 'multipleFaces',
      reason: `more than one face at ${(crowded.timeMs / 1000).toFixed(1)} s of the recording`,
    };
  const missing = frames.filter((f) => f.faces === 0).length;
  if (frames.length === 0 || missing > frames.length * CHALLENGE_MAX_FRAMES_WITHOUT_FACE)
    return { ok: false, code: 'noFace', reason: 'the face is missing from much of the recording' };
  const lastMs = Math.max(...frames.map((f) => f.timeMs));
  if (lastMs > challengeLengthMs(challenge) + CLIP_EXTRA_MS)
    return { ok: false, code: 'tooLong', reason: 'the recording is much longer than the one asked' };
  return judgeMovements(movementsOf(frames, referenceOf(frames, challenge)), challenge);
}

/**
 * Whether the frames read so far (in time order, up to `untilMs` of the clip) already fail it,
 * whatever the rest shows: a second face, a movement that was not asked, or an asked turn whose
 * window is past (a missed eye closing may still be found by the closer look). The service stops
 * reading there: a replayed clip or a still face costs a few frames, not the whole clip.
 */
export function failedAlready(
  frames: readonly TimedFrame[],
  challenge: LivenessChallenge,
  untilMs: number,
): boolean {
  if (frames.some((f) => f.faces > 1)) return true;
  if (untilMs < challenge.cuesMs[0]) return false;
  const verdict = judgeMovements(movementsOf(frames, referenceOf(frames, challenge)), challenge);
  if (verdict.ok) return false;
  if (verdict.code === 'unasked') return true;
  return (
    verdict.code === 'notPerformed' &&
    verdict.action !== 'blink' &&
    untilMs > cueWindow(challenge, verdict.index).toMs + SAME_MOVEMENT_GAP_MS
  );
}

/**
 * Where more frames could show asked eye closings that the sampled ones missed: the windows of
 * those blinks, when a closing in each would make the clip pass; undefined when a closer look
 * cannot change the verdict (it passed, failed on its faces or its length, a turn is missing or
 * something unasked was seen: a still face or a replayed clip is refused at the first look's cost).
 */
export function blinkWindows(
  frames: readonly TimedFrame[],
  challenge: LivenessChallenge,
): { fromMs: number; toMs: number }[] | undefined {
  const first = judgeChallenge(frames, challenge);
  if (first.ok || first.code !== 'notPerformed') return undefined;
  const movements = movementsOf(frames, referenceOf(frames, challenge));
  const spans: { fromMs: number; toMs: number }[] = [];
  for (let verdict: ChallengeVerdict = first; !verdict.ok;) {
    if (verdict.code !== 'notPerformed' || verdict.action !== 'blink') return undefined;
    const window = cueWindow(challenge, verdict.index);
    spans.push(window);
    // As if the closer look found the closing at its cue: does the rest then hold?
    const at = challenge.cuesMs[verdict.index];
    movements.push({ action: 'blink', startMs: at, endMs: at });
    movements.sort((a, b) => a.startMs - b.startMs);
    verdict = judgeMovements(movements, challenge);
  }
  return spans;
}

/** Where the recording is against its challenge's cues. */
export type CuePhase =
  | { phase: 'leadIn' }
  | { phase: 'asked'; index: number }
  | { phase: 'between'; next: number }
  | { phase: 'over' };

/** The phase of the recording at `elapsedMs` from its start: what the wizard shows then. */
export function cuePhase(challenge: LivenessChallenge, elapsedMs: number): CuePhase {
  const { cuesMs } = challenge;
  if (elapsedMs < cuesMs[0]) return { phase: 'leadIn' };
  for (let i = 0; i < cuesMs.length; i++) {
    if (elapsedMs < cuesMs[i] + CUE_WINDOW_MS) return { phase: 'asked', index: i };
    if (i + 1 < cuesMs.length && elapsedMs < cuesMs[i + 1]) return { phase: 'between', next: i + 1 };
  }
  return { phase: 'over' };
}

/** What the live guide says about the current look. */
export type ChallengeGuide = 'noFace' | 'multipleFaces' | 'more' | 'seen' | 'wrong' | 'waiting';

/**
 * The wizard's live reading of one look while `action` is asked: seen once the frame shows it;
 * "a little more" once a turn has gone a third of the way, so the person knows the direction is
 * right; `wrong` for another movement (the service would fail the attempt for it); `waiting` while
 * the face shows nothing yet.
 */
export function challengeGuide(
  action: ChallengeAction,
  frame: ChallengeFrame,
  ref: Reference,
): ChallengeGuide {
  if (frame.faces === 0) return 'noFace';
  if (frame.faces > 1) return 'multipleFaces';
  const movement = frameMovement(frame, ref);
  if (movement === action) return 'seen';
  if (movement !== 'rest' && movement !== undefined) return 'wrong';
  if (action !== 'blink' && frame.yaw !== undefined && ref.restYaw !== undefined) {
    const change = (frame.yaw - ref.restYaw) * (action === 'turnLeft' ? 1 : -1);
    if (change >= TURN_MIN_YAW_CHANGE / 3) return 'more';
  }
  return 'waiting';
}
