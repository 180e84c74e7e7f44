import { describe, expect, it } from 'vitest';
import {
  challengeGuide,
  chooseChallenge,
  headYaw,
  judgeChallenge,
  type ChallengeFrame,
} from './liveness-challenge';

const front: ChallengeFrame = { faces: 1, yaw: 0.01, eyeOpenness: 0.58 };
const left: ChallengeFrame = { faces: 1, yaw: 0.2, eyeOpenness: 0.57 };
const right: ChallengeFrame = { faces: 1, yaw: -0.2, eyeOpenness: 0.57 };
const closed: ChallengeFrame = { faces: 1, yaw: 0.01, eyeOpenness: 0.33 };

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
});
