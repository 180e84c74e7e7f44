import { describe, expect, it } from 'vitest';
import type { Point } from '@/checks/document/document-outline';
import {
  adviseOn,
  GUIDE_WIDTH_SHARE,
  guideFill,
  MIN_GUIDE_FILL,
  STEADY_MS,
  SteadyWatch,
  takesItself,
  type CodeState,
  type LiveLook,
} from './document-guide';

const [W, H] = [512, 384];

/** A centred quad `widthShare` of a `w`×`h` frame's width, of the given aspect, moved by dx. */
function quadOf(widthShare: number, w = W, h = H, aspect = 1.586, dx = 0): Point[] {
  const qw = widthShare * w;
  const qh = qw / aspect;
  const [x0, y0] = [(w - qw) / 2 + dx, (h - qh) / 2];
  return [
    { x: x0, y: y0 },
    { x: x0 + qw, y: y0 },
    { x: x0 + qw, y: y0 + qh },
    { x: x0, y: y0 + qh },
  ];
}

/** A framed look of a card `widthShare` of the (4:3) frame's width, centred, moved by dx. */
function framed(widthShare: number, dx = 0, extra: Partial<LiveLook> = {}): LiveLook {
  return {
    verdict: { kind: 'framed', quad: quadOf(widthShare, W, H, 1.586, dx), aspect: 1.586 },
    width: W,
    height: H,
    blurScore: 800,
    glareShare: 0,
    ...extra,
  };
}

/**
 * A passport (ID-3, 1.42) `widthShare` of a portrait phone frame's width (384×512, the look's size
 * of a 3:4 camera frame) as the outline sees it: framed from QUAD_MIN_AREA_SHARE of the frame, else
 * (too far) only a card-shaped quad in view, with its print (`fullFrame`) or too small to read (`none`).
 */
function portraitPassport(widthShare: number, small: 'fullFrame' | 'none' = 'fullFrame'): LiveLook {
  const [w, h] = [384, 512];
  const quad = quadOf(widthShare, w, h, 1.42);
  const area = (widthShare * w) ** 2 / 1.42 / (w * h);
  return {
    verdict: area >= 0.2 ? { kind: 'framed', quad, aspect: 1.42 } : { kind: small },
    width: w,
    height: h,
    blurScore: 800,
    glareShare: 0,
    cards: [quad.map((p) => ({ x: p.x / w, y: p.y / h }))],
  };
}

/** The width share of the preview at which a document fills MIN_GUIDE_FILL of the guide. */
const closeEnough = MIN_GUIDE_FILL * GUIDE_WIDTH_SHARE;

describe('adviseOn', () => {
  it('names what is wrong, the document first, then glare, then blur', () => {
    expect(adviseOn({ ...framed(0.8), verdict: { kind: 'none' } })).toBe('noDocument');
    expect(adviseOn({ ...framed(0.8), verdict: { kind: 'fullFrame' } })).toBe('fitWhole');
    expect(adviseOn({ ...framed(0.8), verdict: { kind: 'cropped', quad: [] } })).toBe('fitWhole');
    expect(adviseOn(framed(closeEnough - 0.05))).toBe('moveCloser');
    expect(adviseOn(framed(0.8, 0, { glareShare: 0.1, blurScore: 10 }))).toBe('glare');
    expect(adviseOn(framed(0.8, 0, { blurScore: 10 }))).toBe('blurry');
    expect(adviseOn(framed(0.8))).toBe('holdStill');
  });

  it('names a cover over the document before what it causes, and never takes a covered shot', () => {
    expect(adviseOn(framed(0.8, 0, { covered: true }))).toBe('covered');
    expect(adviseOn({ ...framed(0.8), verdict: { kind: 'none' }, covered: true })).toBe('covered');
    expect(adviseOn({ ...framed(0.8), verdict: { kind: 'cropped', quad: [] }, covered: true })).toBe(
      'covered',
    );
    expect(adviseOn(framed(0.8, 0, { covered: false }))).toBe('holdStill');
    const watch = new SteadyWatch();
    const covered = framed(0.8, 0, { covered: true });
    for (const now of [0, 250, STEADY_MS, 2 * STEADY_MS])
      expect(watch.see(covered, adviseOn(covered), now)).toBe(false);
  });

  it('measures the document against the dashed guide, in the part of the frame the preview shows', () => {
    // A 4:3 frame is shown whole: a document as wide as the guide fills it.
    expect(guideFill(framed(GUIDE_WIDTH_SHARE))).toBeCloseTo(1);
    // A portrait frame is shown whole across: its width is the preview's.
    expect(guideFill(portraitPassport(0.6))).toBeCloseTo(0.6 / GUIDE_WIDTH_SHARE);
    // A 16:9 frame is shown cut at the sides: the preview's width is 4/3 of its height.
    const wide: LiveLook = {
      ...framed(0.5),
      width: 640,
      height: 360,
      verdict: { kind: 'framed', quad: quadOf(0.5, 640, 360), aspect: 1.586 },
    };
    expect(guideFill(wide)).toBeCloseTo((0.5 * 640) / (GUIDE_WIDTH_SHARE * 480));
    expect(guideFill({ ...framed(0.8), verdict: { kind: 'none' } })).toBeNull();
    // A quad too small to be the document (a label) is not taken for it.
    expect(guideFill(portraitPassport(0.1))).toBeNull();
  });
});

// Issue 35 item 3: a passport on a dark background before a phone held upright, at 45–70 % of the
// frame's width, where the zone (<<<) must be read. One rule says what to do and takes the photo.
describe('adviseOn with the code the side must show', () => {
  const codes: CodeState[] = ['reading', 'notReadable', 'readable'];

  it('says "move closer" for a passport too far to be read, never the code\'s message', () => {
    for (const share of [0.4, 0.45, 0.55])
      for (const small of ['fullFrame', 'none'] as const)
        for (const code of codes) {
          const advice = adviseOn(portraitPassport(share, small), code);
          expect(advice, `${share} ${small} ${code}`).toBe('moveCloser');
          expect(takesItself(advice)).toBe(false);
        }
  });

  it('at 60 % of the width, it names the code only while unread, and takes it once read', () => {
    for (const share of [0.6, 0.62, 0.7, 0.85]) {
      const look = portraitPassport(share);
      expect(adviseOn(look, 'notReadable')).toBe('codeNotReadable');
      expect(adviseOn(look, 'reading')).toBe('codeReading');
      expect(adviseOn(look, 'readable')).toBe('holdStill');
      expect(takesItself(adviseOn(look, 'readable'))).toBe(true);
      expect(takesItself(adviseOn(look, 'notReadable'))).toBe(false);
      expect(takesItself(adviseOn(look, 'reading'))).toBe(false);
    }
  });

  it('says "no document in view" when none is, unless a code reader read one', () => {
    const empty: LiveLook = {
      verdict: { kind: 'none' },
      width: 384,
      height: 512,
      blurScore: 5,
      glareShare: 0,
      cards: [],
    };
    const close = { ...portraitPassport(0.65), verdict: { kind: 'none' } } as const;
    for (const code of ['reading', 'notReadable'] as const) {
      expect(adviseOn(empty, code)).toBe('noDocument');
      // A card shape close enough, with no print on it, is not a document either.
      expect(adviseOn(close, code)).toBe('noDocument');
    }
    // The code read, the document is there, its print too small for the outline (and the photo
    // check): closer, never "no document", and nothing taken.
    for (const look of [empty, close]) {
      expect(adviseOn(look, 'readable')).toBe('moveCloser');
      expect(takesItself(adviseOn(look, 'readable'))).toBe(false);
    }
  });

  it('with print but no outline (a dark cover lost in a dark desk), lets the code readers decide', () => {
    const look: LiveLook = { ...portraitPassport(0.6), cards: [] };
    expect(look.verdict.kind).toBe('fullFrame');
    expect(adviseOn(look)).toBe('fitWhole');
    expect(adviseOn(look, 'notReadable')).toBe('codeNotReadable');
    expect(adviseOn(look, 'reading')).toBe('codeReading');
    expect(adviseOn(look, 'readable')).toBe('holdStill');
    const watch = new SteadyWatch();
    expect(watch.see(look, 'holdStill', 0)).toBe(false);
    expect(watch.see(look, 'holdStill', 250)).toBe(false);
    expect(watch.see(look, 'codeReading', 500)).toBe(false);
    expect(watch.see(look, 'holdStill', 750)).toBe(false);
    expect(watch.see(look, 'holdStill', 750 + STEADY_MS)).toBe(true);
  });

  it('takes the photo by itself exactly when it says the document can be read', () => {
    const steady = new SteadyWatch();
    const look = portraitPassport(0.6);
    let took = false;
    for (const [now, code] of [
      [0, 'reading'],
      [250, 'reading'],
      [500, 'readable'],
      [750, 'readable'],
      [1000, 'readable'],
    ] as const)
      took = steady.see(look, adviseOn(look, code), now);
    expect(took).toBe(true);
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
