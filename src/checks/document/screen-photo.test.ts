import { describe, expect, it } from 'vitest';
import { isScreenPhoto, lookForScreen, SCREEN_SHARE_MIN } from './screen-photo';

/** An RGB picture of `width`×`height` whose pixels `paint` gives. */
function picture(width: number, height: number, paint: (x: number, y: number) => [number, number, number]) {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(paint(x, y), (y * width + x) * 3);
  }
  return { data, width, height, channels: 3 };
}

/** A screen's beat: red, green and blue each rippling a third of a period apart (9 px, slanted). */
const ripple = (x: number, y: number, c: number) =>
  14 * Math.cos((2 * Math.PI * (x + 0.4 * y)) / 9 + (c * 2 * Math.PI) / 3);

describe('lookForScreen', () => {
  it('calls a flat picture seen through a screen’s colour ripples a screen', () => {
    const look = lookForScreen(
      picture(640, 480, (x, y) => [0, 1, 2].map((c) => 150 + ripple(x, y, c)) as never),
    );
    expect(look.share).toBeGreaterThan(0.5);
    expect(isScreenPhoto(look)).toBe(true);
  });

  it('does not call print a screen: dark lines of one ink on paper, in colour', () => {
    // Lines of blue-black print every 9 px: colour comes with brightness, along one hue.
    const look = lookForScreen(
      picture(640, 480, (x, y) => ((x + 0.4 * y) % 9 < 3 ? [40, 50, 110] : [235, 232, 225])),
    );
    expect(look.share).toBeLessThan(SCREEN_SHARE_MIN);
  });

  it('does not call sensor noise a screen: grain in every channel, round in hue but no wave', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 40;
    const look = lookForScreen(picture(640, 480, () => [150 + random(), 150 + random(), 150 + random()]));
    expect(look.rippled).toBe(0);
  });

  it('does not call a grey picture a screen, whatever its detail', () => {
    const look = lookForScreen(picture(640, 480, (x, y) => Array(3).fill(128 + ripple(x, y, 0)) as never));
    expect(look.rippled).toBe(0);
  });
});
