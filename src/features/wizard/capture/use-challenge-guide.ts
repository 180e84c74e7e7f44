import { useEffect, useState, type RefObject } from 'react';
import {
  challengeGuide,
  openEyesOf,
  restingYaw,
  type ChallengeGuide,
} from '@/checks/video/liveness-challenge';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';

/**
 * Pause between two looks while the challenge runs: short, so that eyes closed for a moment are
 * seen, and only while recording (a few seconds).
 */
const LOOK_PAUSE_MS = 80;
/** Looks at a face before the first action is judged: the head's resting yaw and open eyes. */
const LEAD_IN_LOOKS = 3;
/** An action not seen in this long gives way to the next: the service judges the clip anyway. */
const ACTION_TIMEOUT_MS = 5000;
/** Open-eye readings kept for the blink's reference (their upper quartile, as the service's rule). */
const EYE_WINDOW = 24;

export interface ChallengeProgress {
  /** The action being asked (index into the challenge); its length once all are done. */
  index: number;
  guide: ChallengeGuide | 'starting';
}

/**
 * The live side of the active liveness challenge, while the clip records: looks at the camera's
 * frames (the face worker's guide look, which also reads yaw and eye openness), tells the person
 * how the current action goes ("a little more", "hold still") and moves on once the frame shows
 * it, with the service's own rule (`challengeGuide` of `@/checks/video/liveness-challenge`).
 */
export function useChallengeGuide(
  videoRef: RefObject<HTMLVideoElement | null>,
  active: boolean,
  challenge: LivenessChallenge | undefined,
): ChallengeProgress {
  const [progress, setProgress] = useState<ChallengeProgress>({ index: 0, guide: 'starting' });

  useEffect(() => {
    if (!active || !challenge) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let index = 0;
    /** Yaw of every look at one face so far: where the head rests is their median, as the service's. */
    const yaws: number[] = [];
    let looks = 0;
    let actionSince = performance.now();
    const eyes: number[] = [];

    const advance = () => {
      index++;
      actionSince = performance.now();
    };

    void import('../checks/check-faces')
      .then(({ guideFrame }) => {
        const loop = async () => {
          if (stopped) return;
          const video = videoRef.current;
          if (video && video.videoWidth > 0 && video.readyState >= 2) {
            const { reading } = await guideFrame(video).catch(() => ({ reading: undefined }));
            if (stopped) return;
            // The reference of this look is the looks before it (the service's rule reads a clip so).
            const rest = restingYaw(yaws);
            const openEyes = openEyesOf(eyes);
            if (reading && reading.faces === 1) {
              looks++;
              if (reading.yaw !== undefined) yaws.push(reading.yaw);
              if (reading.eyeOpenness !== undefined) {
                eyes.push(reading.eyeOpenness);
                if (eyes.length > EYE_WINDOW) eyes.shift();
              }
            }
            let guide: ChallengeProgress['guide'] = 'starting';
            if (reading && looks >= LEAD_IN_LOOKS && index < challenge.actions.length) {
              guide = challengeGuide(challenge.actions[index], reading, rest, openEyes);
              if (guide === 'done') advance();
            } else if (reading && reading.faces !== 1) {
              guide = reading.faces === 0 ? 'noFace' : 'multipleFaces';
            }
            if (looks >= LEAD_IN_LOOKS && performance.now() - actionSince > ACTION_TIMEOUT_MS) advance();
            if (looks < LEAD_IN_LOOKS) actionSince = performance.now();
            setProgress({ index: Math.min(index, challenge.actions.length), guide });
            if (index >= challenge.actions.length) return;
          }
          timer = setTimeout(() => void loop(), LOOK_PAUSE_MS);
        };
        void loop();
      })
      // Without the face checks the person still sees the actions, one every few seconds.
      .catch(() => {
        const tick = () => {
          if (stopped) return;
          setProgress({ index: Math.min(++index, challenge.actions.length), guide: 'holdStill' });
          if (index < challenge.actions.length) timer = setTimeout(tick, ACTION_TIMEOUT_MS / 2);
        };
        timer = setTimeout(tick, ACTION_TIMEOUT_MS / 2);
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
      // A new recording (a retake) starts from the first action.
      setProgress({ index: 0, guide: 'starting' });
    };
  }, [active, challenge, videoRef]);

  return progress;
}
