import { useEffect, useState, type RefObject } from 'react';
import {
  challengeGuide,
  cuePhase,
  judgeChallenge,
  referenceOf,
  type ChallengeGuide,
  type ChallengeVerdict,
  type CuePhase,
  type TimedFrame,
} from '@/checks/video/liveness-challenge';
import type { LivenessChallenge } from '@/shared/contract/liveness-challenge';

/**
 * Pause between two looks while the challenge runs: short, so that eyes closed for a moment are
 * seen, and only while recording (a few seconds).
 */
const LOOK_PAUSE_MS = 80;
/** The phase is re-read at least this often, so that a cue shows at its time even between looks. */
const PHASE_TICK_MS = 100;

export interface ChallengeProgress {
  /** Where the recording is against the cues (what the screen asks now). */
  phase: CuePhase;
  /** The live reading of the asked movement (only while one is asked). */
  guide?: ChallengeGuide;
  /**
   * Once the recording is over: the service's own rule on the guide's looks, or undefined when the
   * face checks could not run here (the wizard then cannot tell, and says nothing of the sort).
   */
  verdict?: ChallengeVerdict;
}

const idle: ChallengeProgress = { phase: { phase: 'leadIn' } };

/**
 * The live side of the active liveness challenge, while the clip records: shows each cue at the
 * time the service chose (from `startedAt`, the recording's start in `performance.now()` time),
 * looks at the camera's frames (the face worker's guide look, which also reads yaw and eye
 * openness) and tells the person how the asked movement goes, with the service's own rules
 * (`@/checks/video/liveness-challenge`); once the recording is over, judges the looks as the
 * service will judge the clip, so a face that did not make the movements is told so here.
 */
export function useChallengeGuide(
  videoRef: RefObject<HTMLVideoElement | null>,
  active: boolean,
  startedAt: number,
  challenge: LivenessChallenge | undefined,
): ChallengeProgress {
  const [progress, setProgress] = useState<ChallengeProgress>(idle);

  useEffect(() => {
    if (!active || !challenge) return;
    let stopped = false;
    let lookTimer: ReturnType<typeof setTimeout> | undefined;
    const frames: TimedFrame[] = [];
    let checksRun = false;
    let guide: ChallengeGuide | undefined;
    const elapsed = () => performance.now() - startedAt;
    const show = () => {
      const phase = cuePhase(challenge, elapsed());
      setProgress({ phase, ...(phase.phase === 'asked' && guide ? { guide } : {}) });
    };
    // The cues keep their time whatever the looks cost.
    const ticker = setInterval(show, PHASE_TICK_MS);

    void import('../checks/check-faces')
      .then(({ guideFrame }) => {
        const loop = async () => {
          if (stopped) return;
          const video = videoRef.current;
          if (video && video.videoWidth > 0 && video.readyState >= 2) {
            const timeMs = elapsed();
            const { reading } = await guideFrame(video).catch(() => ({ reading: undefined }));
            if (stopped) return;
            if (reading) {
              checksRun = true;
              frames.push({ ...reading, timeMs });
              const phase = cuePhase(challenge, timeMs);
              guide =
                phase.phase === 'asked'
                  ? challengeGuide(challenge.actions[phase.index], reading, referenceOf(frames, challenge))
                  : undefined;
              show();
            }
          }
          lookTimer = setTimeout(() => void loop(), LOOK_PAUSE_MS);
        };
        void loop();
      })
      // Without the face checks the person still sees each cue at its time.
      .catch(() => undefined);
    return () => {
      stopped = true;
      clearInterval(ticker);
      clearTimeout(lookTimer);
      // The recording is over: what the looks showed, as the service would read the clip.
      setProgress(
        checksRun ? { phase: { phase: 'over' }, verdict: judgeChallenge(frames, challenge) } : idle,
      );
    };
  }, [active, challenge, startedAt, videoRef]);

  return progress;
}
