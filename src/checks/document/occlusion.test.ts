import { describe, expect, it } from 'vitest';
import { COVER_OUTSIDE_SHARE, COVER_TEXT_MIN_CHARS, isCovered, lookForCover } from './occlusion';

type Rgb = [number, number, number];

/** An RGB picture of `width`×`height` whose pixels `paint` gives. */
function picture(width: number, height: number, paint: (x: number, y: number) => Rgb) {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 3);
  }
  return { data, width, height, channels: 3 };
}

const W = 640;
const H = 480;
/** The card: 400×250 at the middle, white, with lines of dark print every 16 px. */
const card = { left: 120, top: 115, right: 520, bottom: 365 };
const onCard = (x: number, y: number) => x >= card.left && x < card.right && y >= card.top && y < card.bottom;
function cardPixel(x: number, y: number): Rgb {
  const line = (y - card.top) % 16;
  const printed = x > card.left + 16 && x < card.right - 16 && y > card.top + 12 && y < card.bottom - 12;
  return printed && line < 7 && (x >> 2) % 2 === 0 ? [30, 30, 40] : [236, 234, 228];
}
/** A thumb 90 px wide from below the photo's bottom edge up to y = 250, shaded across. */
function thumb(x: number, y: number): Rgb | null {
  const centre = 300;
  const half = 70;
  const dx = x - centre;
  const tipY = 230 + half;
  if (Math.abs(dx) > half || (y < tipY && Math.hypot(dx, y - tipY) > half)) return null;
  const k = 0.8 + 0.2 * Math.cos((dx / half) * (Math.PI / 2));
  return [Math.round(222 * k), Math.round(170 * k), Math.round(138 * k)];
}
const table: Rgb = [118, 110, 102];
/** Characters in lines the outline's look reads on such a card. */
const chars = 60;

describe('lookForCover', () => {
  it('sees a thumb reaching from the photo’s edge over the card', () => {
    const look = lookForCover(
      picture(W, H, (x, y) => thumb(x, y) ?? (onCard(x, y) ? cardPixel(x, y) : table)),
    );
    expect(look.documentBlocks, JSON.stringify(look)).toBeGreaterThan(0);
    expect(look.outside).toBeGreaterThanOrEqual(COVER_OUTSIDE_SHARE * look.blocks);
    expect(isCovered(look, chars), JSON.stringify(look)).toBe(true);
    // Where the outline reads no lines of print there is no document to be covered.
    expect(isCovered(look, COVER_TEXT_MIN_CHARS - 1)).toBe(false);
  });

  it('sees the same shape in a toy’s saturated colour', () => {
    const look = lookForCover(
      picture(W, H, (x, y) => (thumb(x, y) ? [60, 170, 50] : onCard(x, y) ? cardPixel(x, y) : table)),
    );
    expect(isCovered(look, chars), JSON.stringify(look)).toBe(true);
  });

  it('keeps the card with nothing over it', () => {
    const look = lookForCover(picture(W, H, (x, y) => (onCard(x, y) ? cardPixel(x, y) : table)));
    expect(isCovered(look, chars)).toBe(false);
    expect(look.inside).toBe(0);
  });

  it('keeps a card on a red table: the table surrounds the print, it does not lie over it', () => {
    const look = lookForCover(picture(W, H, (x, y) => (onCard(x, y) ? cardPixel(x, y) : [190, 40, 45])));
    expect(isCovered(look, chars)).toBe(false);
  });

  it('keeps a skin-coloured portrait printed on the card (inside it, nothing beyond)', () => {
    const portrait = (x: number, y: number) => x >= 140 && x < 230 && y >= 150 && y < 270;
    const look = lookForCover(
      picture(W, H, (x, y) => (portrait(x, y) ? [214, 168, 140] : onCard(x, y) ? cardPixel(x, y) : table)),
    );
    expect(isCovered(look, chars)).toBe(false);
  });

  it('judges nothing without print, nor on a grey picture', () => {
    expect(lookForCover(picture(W, H, (x, y) => thumb(x, y) ?? table)).documentBlocks).toBe(0);
    const grey = lookForCover({ data: new Uint8Array(W * H).fill(128), width: W, height: H, channels: 1 });
    expect(isCovered(grey, chars)).toBe(false);
  });
});
