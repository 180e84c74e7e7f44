import { describe, expect, it } from 'vitest';
import {
  blinkWindow,
  challengeGuide,
  chooseChallenge,
  headYaw,
  judgeChallenge,
  restingYaw,
  type ChallengeFrame,
} from './liveness-challenge';

const front: ChallengeFrame = { faces: 1, yaw: 0.01, eyeOpenness: 0.58 };
const left: ChallengeFrame = { faces: 1, yaw: 0.2, eyeOpenness: 0.57 };
const right: ChallengeFrame = { faces: 1, yaw: -0.2, eyeOpenness: 0.57 };
const closed: ChallengeFrame = { faces: 1, yaw: 0.01, eyeOpenness: 0.16 };
/** A half-closed squint of the drawn face turned far: 0.72 of its open eyes, not a blink. */
const leftSquint: ChallengeFrame = { faces: 1, yaw: 0.3, eyeOpenness: 0.43 };
const many = (frame: ChallengeFrame, n: number) => Array.from({ length: n }, () => frame);

describe('the active liveness challenge', () => {
  it('is a turn and a blink, in either order, both turns and both orders coming up', () => {
    const seen = new Set<string>();
    let seed = 1;
    // A plain LCG: the test needs variety, not security (the service uses crypto.randomInt).
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200; i++) {
      const { actions } = chooseChallenge(random);
      expect(actions).toHaveLength(2);
      expect(actions).toContain('blink');
      seen.add(actions.join(','));
    }
    expect([...seen].sort()).toEqual([
      'blink,turnLeft',
      'blink,turnRight',
      'turnLeft,blink',
      'turnRight,blink',
    ]);
  });

  it('reads the yaw from where the nose sits between the cheeks', () => {
    const mesh: [number, number][] = Array.from({ length: 478 }, () => [0, 0]);
    mesh[234] = [100, 0];
    mesh[454] = [200, 0];
    mesh[1] = [150, 0];
    expect(headYaw(mesh)).toBeCloseTo(0);
    mesh[1] = [170, 0];
    expect(headYaw(mesh)).toBeCloseTo(0.2);
    expect(headYaw([])).toBeUndefined();
  });

  it('passes the asked actions in the asked order', () => {
    const clip = [front, front, left, left, front, closed, front];
    expect(judgeChallenge(clip, { actions: ['turnLeft', 'blink'] })).toEqual({ ok: true });
    const wrongOrder = judgeChallenge(clip, { actions: ['blink', 'turnLeft'] });
    expect(wrongOrder).toMatchObject({ ok: false, code: 'notPerformed', action: 'turnLeft' });
  });

  it('refuses a still face, the wrong direction, a second face, and a face that is mostly missing', () => {
    const still = Array.from({ length: 20 }, () => front);
    expect(judgeChallenge(still, { actions: ['turnLeft', 'blink'] })).toMatchObject({
      ok: false,
      code: 'notPerformed',
      action: 'turnLeft',
    });
    expect(judgeChallenge([front, right, front, closed], { actions: ['turnLeft', 'blink'] })).toMatchObject({
      code: 'notPerformed',
    });
    expect(
      judgeChallenge([front, { faces: 2 }, left, closed], { actions: ['turnLeft', 'blink'] }),
    ).toMatchObject({
      code: 'multipleFaces',
    });
    const gone = { faces: 0 };
    expect(
      judgeChallenge([front, gone, gone, left, closed], { actions: ['turnLeft', 'blink'] }),
    ).toMatchObject({
      code: 'noFace',
    });
    expect(judgeChallenge([], { actions: ['blink'] })).toMatchObject({ code: 'noFace' });
  });

  it('guides: a little more on the way, hold still otherwise, done once seen', () => {
    expect(challengeGuide('turnLeft', { faces: 1, yaw: 0.05 }, 0, 0.58)).toBe('more');
    expect(challengeGuide('turnLeft', { faces: 1, yaw: -0.05 }, 0, 0.58)).toBe('holdStill');
    expect(challengeGuide('turnLeft', left, 0, 0.58)).toBe('done');
    expect(challengeGuide('blink', closed, 0, 0.58)).toBe('done');
    expect(challengeGuide('blink', front, 0, 0.58)).toBe('holdStill');
    expect(challengeGuide('turnRight', { faces: 0 }, 0, 0.58)).toBe('noFace');
  });

  it('measures a turn from where the head rested before it, not from the first frame alone', () => {
    expect(restingYaw([0.02])).toBeUndefined();
    expect(restingYaw([0.02, 0, 0.01])).toBeCloseTo(0.01);
    expect(restingYaw([0.02, 0, 0.01, -0.01])).toBeCloseTo(0.005);
    // Measured on a recorded clip: the first frame read 0.02, the rest of the front 0.00, and the
    // turn at its end 0.11–0.14; from the first frame that was a change of 0.09 and a refusal.
    const offFirst = [{ ...front, yaw: 0.02 }, ...many({ ...front, yaw: 0 }, 6), closed, front, front];
    const turnAtEnd = [...offFirst, { ...left, yaw: 0.114 }];
    expect(judgeChallenge(turnAtEnd, { actions: ['blink', 'turnLeft'] })).toEqual({ ok: true });
    // A recording that starts while the head is still turned left, then faces the camera, turns
    // right, comes back, blinks and turns left as asked.
    const startsTurned = [...many(left, 4), ...many(front, 6), ...many(right, 3), ...many(front, 4)];
    expect(
      judgeChallenge([...startsTurned, closed, front, left], { actions: ['turnLeft', 'blink'] }),
    ).toMatchObject({
      ok: false,
      action: 'blink',
    });
    expect(
      judgeChallenge([...startsTurned, left, front, closed, front], { actions: ['turnLeft', 'blink'] }),
    ).toEqual({ ok: true });
  });

  it('refuses a head that only comes back from a long turn the other way', () => {
    // Against a resting yaw that followed the head to its right, facing the camera again is a
    // change to the left; it is not a turn to the left.
    const clip = [...many(front, 3), ...many(right, 12), ...many(front, 4), closed, front];
    expect(judgeChallenge(clip, { actions: ['turnLeft', 'blink'] })).toMatchObject({
      ok: false,
      code: 'notPerformed',
      action: 'turnLeft',
    });
    expect(judgeChallenge(clip, { actions: ['turnRight', 'blink'] })).toEqual({ ok: true });
  });

  it("does not take a turned head's narrower eyes for a blink", () => {
    const clip = [...many(front, 4), ...many(leftSquint, 4), ...many(front, 4)];
    expect(judgeChallenge(clip, { actions: ['turnLeft', 'blink'] })).toMatchObject({
      ok: false,
      action: 'blink',
      reason: expect.stringContaining('eye openness 0.43 at the lowest, open 0.58'),
    });
  });

  it('refuses a replayed still photo, whatever it is asked', () => {
    const photo = many({ faces: 1, yaw: 0.04, eyeOpenness: 0.31 }, 48);
    for (const actions of [
      ['turnLeft', 'blink'],
      ['blink', 'turnRight'],
    ] as const)
      expect(judgeChallenge(photo, { actions: [...actions] })).toMatchObject({
        ok: false,
        code: 'notPerformed',
      });
    expect(blinkWindow(photo, { actions: ['blink', 'turnRight'] })).toBeUndefined();
  });

  it('asks for a closer look only where a missed blink belongs, and only when the rest is there', () => {
    // Blink asked first: it belongs before the last frame that shows the turn.
    const turnOnly = [...many(front, 4), left, left, front];
    expect(blinkWindow(turnOnly, { actions: ['blink', 'turnLeft'] })).toEqual({ after: -1, before: 5 });
    // Blink asked after the turn: it belongs after the first frame that shows it, to the end.
    expect(blinkWindow(turnOnly, { actions: ['turnLeft', 'blink'] })).toEqual({ after: 4, before: 7 });
    // The turn is missing too (a still face): no closer look can make it pass.
    expect(blinkWindow(many(front, 12), { actions: ['blink', 'turnLeft'] })).toBeUndefined();
    expect(blinkWindow(many(front, 12), { actions: ['turnLeft', 'blink'] })).toBeUndefined();
    // The turn is what is missing, or everything is there: nothing to look for.
    expect(
      blinkWindow([...many(front, 4), closed, front], { actions: ['blink', 'turnLeft'] }),
    ).toBeUndefined();
    expect(blinkWindow([...turnOnly, closed], { actions: ['turnLeft', 'blink'] })).toBeUndefined();
  });
});
