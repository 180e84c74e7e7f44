import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceLook } from '../../../e2e/fixtures/drawn-face';
import { frameOf } from '../../../e2e/fixtures/camera/make-challenge-camera';
import { CHALLENGE_SAMPLING, videoChallenge, type ChallengeCost } from './face-checks';

// The challenge read from real VP8 clips of the challenge camera's drawn face, made here at 30
// frames a second with the native FFmpeg of the npm registry (a devDependency); the service reads
// them as it reads a recording (FFmpeg from npm, wasm).

const ffmpeg = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json')),
  'ffmpeg',
);
let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-challenge-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A WebM (VP8) of the drawn face, [look, frames] after one another, at `fps` frames a second. */
async function clip(name: string, poses: [FaceLook, number][], fps = 30): Promise<string> {
  const frames: Buffer[] = [];
  for (const [look, count] of poses) {
    const frame = await frameOf(look);
    for (let i = 0; i < count; i++) frames.push(frame);
  }
  const out = path.join(dir, `${name}.webm`);
  const made = spawnSync(
    ffmpeg,
    [
      ...['-loglevel', 'error', '-f', 'mjpeg', '-framerate', String(fps), '-i', 'pipe:0'],
      ...['-c:v', 'libvpx', '-b:v', '800k', out],
    ],
    { input: Buffer.concat(frames) },
  );
  if (made.status !== 0) throw new Error(String(made.stderr));
  return out;
}

const front: FaceLook = {};
const closed: FaceLook = { eyes: 'closed' };
const left: FaceLook = { turn: 0.9 };

describe("the challenge read from a video's frames", () => {
  it(
    'finds eyes closed for 0.17 s between the frames it looks at first, and no more than it needs',
    { timeout: 180_000 },
    async () => {
      // Closed from 1.2 s to 1.37 s, where FFmpeg's frames at 4 a second (the first look's, and
      // all the service looked at before) show open eyes on either side, and one at 8 shows them.
      const video = await clip('short-blink', [
        [front, 36],
        [closed, 5],
        [front, 39],
        [left, 20],
        [front, 10],
      ]);
      const cost: ChallengeCost = { decoded: 0, detected: 0 };
      const verdict = await videoChallenge(video, { actions: ['blink', 'turnLeft'] }, {}, cost);
      expect(verdict).toEqual({ ok: true });
      // 3.7 s at 8 a second; the first look (every other frame) up to the turn, then the frames
      // between before the turn only.
      expect(cost.decoded).toBeGreaterThanOrEqual(29);
      expect(cost.decoded).toBeLessThanOrEqual(CHALLENGE_SAMPLING.max);
      expect(cost.detected).toBeLessThan(cost.decoded);
    },
  );

  it(
    'reads each frame a thin recording kept where the blink belongs, when 8 a second missed it',
    { timeout: 180_000 },
    async () => {
      // 10 frames a second, as a loaded browser records (it kept 5–10), with one frame of closed
      // eyes at 1.2–1.3 s: between FFmpeg's frames at 8 a second (1.125 s and 1.25 s show the
      // frames on either side), read by the closer look at 24 a second of the span before the turn.
      const video = await clip(
        'thin-recording',
        [
          [front, 12],
          [closed, 1],
          [front, 8],
          [left, 6],
          [front, 4],
        ],
        10,
      );
      const cost: ChallengeCost = { decoded: 0, detected: 0 };
      const verdict = await videoChallenge(video, { actions: ['blink', 'turnLeft'] }, {}, cost);
      expect(verdict).toEqual({ ok: true });
      // The second decode added the span's frames; the ones it repeated were not looked at again.
      expect(cost.decoded).toBeGreaterThan(25 + 24);
      expect(cost.detected).toBeLessThanOrEqual(31);
    },
  );

  it(
    'refuses a turn with no blink, after looking closer where the blink belonged',
    { timeout: 180_000 },
    async () => {
      const video = await clip('no-blink', [
        [front, 30],
        [left, 20],
        [front, 30],
      ]);
      const cost: ChallengeCost = { decoded: 0, detected: 0 };
      const verdict = await videoChallenge(video, { actions: ['turnLeft', 'blink'] }, {}, cost);
      expect(verdict).toMatchObject({ ok: false, code: 'notPerformed', action: 'blink' });
      // 2.7 s at 8 a second, then the span after the turn again at 24 a second.
      expect(cost.decoded).toBeGreaterThan(22 + 24);
    },
  );

  it(
    'refuses a still face at the cost of the first look (no closer look can make it pass)',
    { timeout: 180_000 },
    async () => {
      const video = await clip('still', [[front, 90]]);
      for (const actions of [
        ['blink', 'turnLeft'],
        ['turnRight', 'blink'],
      ] as const) {
        const cost: ChallengeCost = { decoded: 0, detected: 0 };
        const verdict = await videoChallenge(video, { actions: [...actions] }, {}, cost);
        expect(verdict).toMatchObject({ ok: false, code: 'notPerformed' });
        expect(cost.detected).toBeLessThanOrEqual(Math.ceil(cost.decoded / 2));
      }
    },
  );
});
