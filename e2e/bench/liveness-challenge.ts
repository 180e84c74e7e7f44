// `npm run bench:liveness-challenge -- [guided clips] [replayed challenges]`: how the active
// liveness challenge holds against a clip recorded once and replayed, and how it treats people who
// follow the guide. Each challenge is issued by the service's own code (`issueChallenge`) and each
// clip judged by its own check (`videoChallenge`: FFmpeg's frames, the face worker, the rules).
//
// - Replayed clips (issue 34), each judged against the same number of issued challenges (100 by
//   default): the 12 s two-loop clip of the issue (turn left, eyes closed, turn right, eyes
//   closed, twice), one 6 s loop, and a best guess of two movements (a turn left at 2.6 s, eyes
//   closed at 5.6 s, 8 s), made as the e2e fake cameras make theirs (the drawn face, VP8).
//   The goal: none passes.
// - Guided clips (100 by default): for each issued challenge, the drawn face makes each asked
//   movement 0.4–1.4 s after its cue (a turn held 0.6–1 s, eyes closed 0.4–0.8 s), recorded at
//   30, 15 or 10 frames a second (a loaded browser keeps 5–10): the share refused.
//
// FFmpeg: the native one of the npm registry unless FFMPEG_PATH is set (the frames are the same
// as the wasm build's; only quicker). A replayed clip's frames are read once: their readings are
// kept by the frame's digest across its challenges.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { challengeLengthMs } from '../../src/checks/video/liveness-challenge';
import type { LivenessChallenge } from '../../src/shared/contract/liveness-challenge';
import { videoChallenge, type ReadingCache } from '../../src/service/checks/face-checks';
import { issueChallenge } from '../../src/service/verification/liveness-attempts';
import {
  CAMERA_FPS,
  closing,
  followingPoses,
  framesOf,
  replayLoop,
  turn,
  type Poses,
} from '../fixtures/camera/make-challenge-camera';
import { encodeWebm, nativeFfmpeg, thinned } from '../fixtures/camera/webm-clip';

const guidedCount = Number(process.argv[2] ?? 100);
const replayCount = Number(process.argv[3] ?? 100);
process.env.FFMPEG_PATH ??= nativeFfmpeg;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-challenge-'));

const clip = async (name: string, poses: Poses, keep = 1) =>
  encodeWebm(thinned(await framesOf(poses), keep), CAMERA_FPS / keep, path.join(dir, `${name}.webm`));

const describe = (c: LivenessChallenge) =>
  c.actions.map((a, i) => `${a}@${(c.cuesMs[i] / 1000).toFixed(1)}`).join(' ');

const started = performance.now();
const figures: Record<string, number> = {};
try {
  const replays: [string, Poses][] = [
    ['two loops, 12 s (issue 34)', [...replayLoop, ...replayLoop]],
    ['one loop, 6 s', replayLoop],
    [
      'best guess: left at 2.6 s, eyes closed at 5.6 s, 8 s',
      [[{}, 78], ...turn(1), [{}, 54], ...closing(), [{}, 36]],
    ],
  ];
  console.log(`# Replayed clips, each against ${replayCount} issued challenges (goal: 0 passed)`);
  for (const [i, [name, poses]] of replays.entries()) {
    const video = await clip(`replay-${i}`, poses);
    const cache: ReadingCache = new Map();
    const codes = new Map<string, number>();
    let passed = 0;
    for (let n = 0; n < replayCount; n++) {
      const challenge = issueChallenge();
      const verdict = await videoChallenge(video, challenge, {}, { twins: cache });
      const code = verdict.ok === true ? 'passed' : verdict.ok === 'unchecked' ? 'unchecked' : verdict.code;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (verdict.ok === true) {
        passed++;
        console.log(`  passed: ${describe(challenge)}`);
      }
    }
    console.log(
      `${name}: ${passed} of ${replayCount} passed (${[...codes].map(([c, k]) => `${c} ${k}`).join(', ')})`,
    );
    figures[`replay${i}Passed`] = passed;
  }

  console.log(`\n# Guided clips: ${guidedCount} issued challenges, each followed at its cues`);
  let refused = 0;
  for (let n = 0; n < guidedCount; n++) {
    const challenge = issueChallenge();
    const spread = (min: number, max: number) => min + (((n * 7919) % 101) / 100) * (max - min);
    const poses = followingPoses(challenge, challengeLengthMs(challenge), {
      reactMs: Math.round(spread(400, 1400)),
      holdFrames: Math.round(spread(18, 30)),
      closingFrames: Math.round(spread(12, 24)),
    });
    const keep = [1, 2, 3][n % 3];
    const video = await clip(`guided-${n}`, poses, keep);
    const verdict = await videoChallenge(video, challenge, {});
    fs.rmSync(video, { force: true });
    if (verdict.ok !== true) {
      refused++;
      console.log(
        `  refused (${CAMERA_FPS / keep} fps): ${describe(challenge)}: ${verdict.ok === 'unchecked' ? verdict.reason : `${verdict.code}: ${verdict.reason}`}`,
      );
    }
  }
  console.log(
    `guided: ${refused} of ${guidedCount} refused (${((100 * refused) / Math.max(1, guidedCount)).toFixed(1)} %)`,
  );
  figures.guidedRefused = refused;
  figures.guided = guidedCount;
  figures.replayChallenges = replayCount;
  figures.seconds = Math.round((performance.now() - started) / 1000);
  console.log(JSON.stringify(figures));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
