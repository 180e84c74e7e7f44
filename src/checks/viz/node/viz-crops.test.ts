import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sample } from '../../../../e2e/fixtures/samples';
import { pgm } from '@/checks/mrz/mrz-band';
import { pageByZone, pgmRows } from './viz-crops';

/**
 * The page placed by its zone: the Argentine passport sample (its card at 12–988 × 12–618 of the
 * photo, its zone's lines along the bottom) laid on a wider table, upright and turned a quarter;
 * the page's bottom-left corner (beside the zone's first line) found within a tenth of its width.
 */
async function onTable(turn: 0 | 90 | 270) {
  // Two pipelines: sharp turns before it extends within one.
  const table = await sharp(sample('ar-passport.jpg').path)
    .extend({ top: 200, bottom: 60, left: 300, right: 140, background: '#6b5a48' })
    .png()
    .toBuffer();
  const { data, info } = await sharp(table)
    .rotate(turn)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { grey: new Uint8Array(data), width: info.width, height: info.height };
}

describe('the page placed by its zone', () => {
  it('finds the page around its zone, upright', async () => {
    const { grey, width, height } = await onTable(0);
    const found = pageByZone(grey, width, height)!(0, 1);
    // The card's bottom-left corner: (300 + 12, 200 + 618).
    expect(Math.hypot(found.x - 312, found.y - 818)).toBeLessThan(98);
  });

  it('finds the same page in the photo turned a quarter either way', async () => {
    const upright = await onTable(0);
    const corner = pageByZone(upright.grey, upright.width, upright.height)!(0, 1);
    const turned = {
      90: { x: upright.height - 1 - corner.y, y: corner.x },
      270: { x: corner.y, y: upright.width - 1 - corner.x },
    };
    for (const turn of [90, 270] as const) {
      const { grey, width, height } = await onTable(turn);
      const found = pageByZone(grey, width, height)!(0, 1);
      expect(Math.hypot(found.x - turned[turn].x, found.y - turned[turn].y)).toBeLessThan(30);
    }
  });

  it('finds none in a photo without a zone', async () => {
    const { data, info } = await sharp({
      create: { width: 900, height: 600, channels: 3, background: '#8899aa' },
    })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(pageByZone(new Uint8Array(data), info.width, info.height)).toBeUndefined();
  });
});

describe('a strip of a crop', () => {
  it('keeps the rows asked, as a PGM file of their size', () => {
    const data = Uint8Array.from({ length: 4 * 5 }, (_, i) => i);
    const strip = pgmRows(pgm({ data, width: 4, height: 5 }), 4, 5, 1, 3);
    const header = 'P5\n4 2\n255\n';
    expect(new TextDecoder().decode(strip.subarray(0, header.length))).toBe(header);
    expect([...strip.subarray(header.length)]).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
  });
});
