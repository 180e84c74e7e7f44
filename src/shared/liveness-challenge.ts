import { z } from 'zod';

/**
 * The active liveness challenge: a short random sequence of head turns and a blink that the
 * service chooses per verification (never the browser), that the wizard tells the person while it
 * records, and that the service then looks for in the recorded frames. The rules that read a turn
 * or a blink from the face mesh are here, once, for both sides of the wire.
 *
 * An extension of the hosted API: a verification from a service that sets no challenge records
 * and checks its video as before.
 */

export const challengeActions = ['turnLeft', 'turnRight', 'blink'] as const;
export type ChallengeAction = (typeof challengeActions)[number];

export const livenessChallengeSchema = z.object({
  /** In order; the person's own left and right (the preview is mirrored, so it matches the screen). */
  actions: z.array(z.enum(challengeActions)).min(1).max(4),
});
export type LivenessChallenge = z.infer<typeof livenessChallengeSchema>;

/**
 * A random challenge: one head turn (left or right) and a blink, in a random order. Two actions
 * keep the clip short (a few seconds) while a replayed recording has to match a sequence it could
 * not know in advance (4 possibilities; a failed attempt gets a fresh one with the next verification).
 */
export function chooseChallenge(random: () => number): LivenessChallenge {
  const turn: ChallengeAction = random() < 0.5 ? 'turnLeft' : 'turnRight';
  return { actions: random() < 0.5 ? [turn, 'blink'] : ['blink', turn] };
}

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
 * A turn counts when the yaw moved this far from where the head started, in the asked direction.
 * The drawn face of the challenge's fake camera (e2e/fixtures/camera/make-challenge-camera.ts)
 * measures 0.00–0.01 facing the camera, 0.15–0.21 turned by half to two thirds of its drawn
 * range (facemesh at 360 px, the service's frame size). A comfortable real turn of ~25° moves the
 * nose a quarter of the way to the cheek (≈0.15), so 0.1 asks for a visible turn, not a profile.
 */
export const TURN_MIN_YAW_CHANGE = 0.1;
/**
 * A blink counts when the eye openness of a frame drops under this share of the clip's open eyes
 * (its upper quartile). Relative, because real open eyes measure 0.27–0.36 and drawn ones
 * 0.52–0.64 (face-rules.ts). At the service's 360 px frames the drawn face measures 0.58–0.59
 * open and 0.33 closed (0.56 of open); at full size drawn closed eyes measure 0.12–0.28.
 */
export const BLINK_MAX_OPENNESS_SHARE = 0.65;
/** Share of the sampled frames that may show no face (turned heads lose the detector now and then). */
export const CHALLENGE_MAX_FRAMES_WITHOUT_FACE = 0.25;

/** What the check needs of one sampled frame, in time order. */
export interface ChallengeFrame {
  faces: number;
  yaw?: number;
  eyeOpenness?: number;
}

export type ChallengeVerdict =
  | { ok: true }
  | { ok: false; code: 'noFace' | 'multipleFaces'; reason: string }
  | { ok: false; code: 'notPerformed'; action: ChallengeAction; reason: string };

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** Whether one frame shows the action, against the head's starting yaw and the clip's open eyes. */
function shows(action: ChallengeAction, frame: ChallengeFrame, startYaw: number, openEyes: number) {
  if (frame.faces !== 1) return false;
  if (action === 'blink')
    return frame.eyeOpenness !== undefined && frame.eyeOpenness <= openEyes * BLINK_MAX_OPENNESS_SHARE;
  if (frame.yaw === undefined) return false;
  const change = frame.yaw - startYaw;
  return action === 'turnLeft' ? change >= TURN_MIN_YAW_CHANGE : change <= -TURN_MIN_YAW_CHANGE;
}

/**
 * The service's reading of a recorded clip: one face throughout (never two, rarely none), and the
 * asked actions in the asked order. The head's starting yaw is the first face frame's.
 */
export function judgeChallenge(
  frames: readonly ChallengeFrame[],
  challenge: LivenessChallenge,
): ChallengeVerdict {
  const crowded = frames.findIndex((f) => f.faces > 1);
  if (crowded >= 0)
    return { ok: false, code: 'multipleFaces', reason: `frame ${crowded + 1} shows more than one face` };
  const missing = frames.filter((f) => f.faces === 0).length;
  if (frames.length === 0 || missing > frames.length * CHALLENGE_MAX_FRAMES_WITHOUT_FACE)
    return {
      ok: false,
      code: 'noFace',
      reason: `${missing} of ${frames.length} sampled frames show no face`,
    };
  const start = frames.find((f) => f.faces === 1 && f.yaw !== undefined)?.yaw ?? 0;
  const eyes = frames.flatMap((f) => (f.eyeOpenness === undefined ? [] : [f.eyeOpenness]));
  const openEyes = eyes.length ? quantile(eyes, 0.75) : 0;
  let at = 0;
  for (const action of challenge.actions) {
    const found = frames.findIndex((f, i) => i >= at && shows(action, f, start, openEyes));
    if (found < 0) {
      const yaws = frames.flatMap((f) => (f.yaw === undefined ? [] : [f.yaw - start]));
      const measured =
        action === 'blink'
          ? `eye openness ${eyes.length ? Math.min(...eyes).toFixed(2) : 'unknown'} at the lowest, open ${openEyes.toFixed(2)}`
          : `yaw change ${yaws.length ? (action === 'turnLeft' ? Math.max(...yaws) : Math.min(...yaws)).toFixed(2) : 'unknown'}, needs ${TURN_MIN_YAW_CHANGE}`;
      return {
        ok: false,
        code: 'notPerformed',
        action,
        reason: `the asked ${action} was not seen${at > 0 ? ' after the previous action' : ''} (${measured})`,
      };
    }
    at = found + 1;
  }
  return { ok: true };
}

/** What the live guide says while the person performs the current action. */
export type ChallengeGuide = 'noFace' | 'multipleFaces' | 'holdStill' | 'more' | 'done';

/**
 * The wizard's live reading of one action: done once the frame shows it; for a turn, "a little
 * more" once the head has moved a third of the way, so the person knows the direction is right.
 */
export function challengeGuide(
  action: ChallengeAction,
  frame: ChallengeFrame,
  startYaw: number,
  openEyes: number,
): ChallengeGuide {
  if (frame.faces === 0) return 'noFace';
  if (frame.faces > 1) return 'multipleFaces';
  if (shows(action, frame, startYaw, openEyes)) return 'done';
  if (action !== 'blink' && frame.yaw !== undefined) {
    const change = (frame.yaw - startYaw) * (action === 'turnLeft' ? 1 : -1);
    if (change >= TURN_MIN_YAW_CHANGE / 3) return 'more';
  }
  return 'holdStill';
}
