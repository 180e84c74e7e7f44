import { describe, expect, it } from 'vitest';
import type { Point } from '@/checks/document/document-outline';
import { adviseOn, MOVE_CLOSER_SHARE, STEADY_MS, SteadyWatch, type LiveLook } from './document-guide';

const [W, H] = [512, 384];

/** A framed look of a card `share` of the frame, centred, moved by dx. */
function framed(share: number, dx = 0, extra: Partial<LiveLook> = {}): LiveLook {
  const w = Math.sqrt(share * W * H * 1.586);
  const h = w / 1.586;
  const [x0, y0] = [(W - w) / 2 + dx, (H - h) / 2];
  const quad: Point[] = [
    { x: x0, y: y0 },
    { x: x0 + w, y: y0 },
    { x: x0 + w, y: y0 + h },
    { x: x0, y: y0 + h },
  ];
  return {
    verdict: { kind: 'framed', quad, aspect: 1.586 },
    width: W,
    height: H,
    blurScore: 800,
    glareShare: 0,
    ...extra,
  };
}

describe('adviseOn', () => {
  it('names what is wrong, the document first, then glare, then blur', () => {
    expect(adviseOn({ ...framed(0.5), verdict: { kind: 'none' } })).toBe('noDocument');
    expect(adviseOn({ ...framed(0.5), verdict: { kind: 'fullFrame' } })).toBe('fitWhole');
    expect(adviseOn({ ...framed(0.5), verdict: { kind: 'cropped', quad: [] } })).toBe('fitWhole');
    expect(adviseOn(framed(MOVE_CLOSER_SHARE - 0.05))).toBe('moveCloser');
    expect(adviseOn(framed(0.5, 0, { glareShare: 0.1, blurScore: 10 }))).toBe('glare');
    expect(adviseOn(framed(0.5, 0, { blurScore: 10 }))).toBe('blurry');
    expect(adviseOn(framed(0.5))).toBe('holdStill');
  });

  it('names a cover over the document before what it causes, and never takes a covered shot', () => {
    expect(adviseOn(framed(0.5, 0, { covered: true }))).toBe('covered');
    expect(adviseOn({ ...framed(0.5), verdict: { kind: 'none' }, covered: true })).toBe('covered');
    expect(adviseOn({ ...framed(0.5), verdict: { kind: 'cropped', quad: [] }, covered: true })).toBe(
      'covered',
    );
    expect(adviseOn(framed(0.5, 0, { covered: false }))).toBe('holdStill');
    const watch = new SteadyWatch();
    const covered = framed(0.5, 0, { covered: true });
    for (const now of [0, 250, STEADY_MS, 2 * STEADY_MS])
      expect(watch.see(covered, adviseOn(covered), now)).toBe(false);
  });
});

describe('SteadyWatch', () => {
  it('takes after STEADY_MS of good, still looks', () => {
    const watch = new SteadyWatch();
    const look = framed(0.5);
    expect(watch.see(look, 'holdStill', 0)).toBe(false);
    expect(watch.see(look, 'holdStill', 250)).toBe(false);
    expect(watch.see(framed(0.5, 2), 'holdStill', STEADY_MS)).toBe(true);
  });

  it('starts again when the document moves or a look is not good', () => {
    const watch = new SteadyWatch();
    watch.see(framed(0.5), 'holdStill', 0);
    watch.see(framed(0.5), 'holdStill', 250);
    expect(watch.see(framed(0.5, 40), 'holdStill', 500)).toBe(false);
    expect(watch.see(framed(0.5, 40), 'holdStill', 750)).toBe(false);
    expect(watch.see(framed(0.5, 40), 'holdStill', 1000)).toBe(true);
    const again = new SteadyWatch();
    again.see(framed(0.5), 'holdStill', 0);
    expect(again.see(framed(0.5), 'blurry', 250)).toBe(false);
    expect(again.see(framed(0.5), 'holdStill', 500)).toBe(false);
    expect(again.see(framed(0.5), 'holdStill', 750)).toBe(false);
    expect(again.see(framed(0.5), 'holdStill', 1000)).toBe(true);
  });
});
