import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../../../../e2e/fixtures/samples';
import { alterationMap } from './alteration-map';
import { alterationOutcome } from './alteration-check';

// The drawn passport of the samples photographed: its optics soften every edge over a pixel or
// two and its sensor adds grain. A field repainted after: a flat fill with text drawn at the
// photo's own pixels, pasted over the date of birth and saved again.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'repainted-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function photographed(): Promise<Buffer> {
  const { data, info } = await sharp(sample('gb-passport.jpg').path)
    .blur(1.2)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let state = 11;
  const uniform = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + (uniform() + uniform() + uniform()) * 4)));
  }
  return sharp(data, { raw: info }).jpeg({ quality: 92 }).toBuffer();
}

function repainted(photo: Buffer, box: { left: number; top: number; width: number; height: number }) {
  const paint = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}"><rect width="100%" height="100%" fill="#ddd8ee"/>` +
      `<text x="4" y="${box.height * 0.8}" font-family="DejaVu Sans" font-weight="bold" font-size="${box.height * 0.7}" fill="#111">01/01/1970</text></svg>`,
  );
  return sharp(photo)
    .composite([{ input: paint, left: box.left, top: box.top }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The drawn face, as the portrait detector boxes it (shares of the photo). */
const face = { box: { x: 0.09, y: 0.3, w: 0.16, h: 0.27 }, on: { photo: {} } };

async function judged(bytes: Buffer, name: string) {
  const at = path.join(dir, name);
  await writeFile(at, bytes);
  return alterationOutcome(await alterationMap(at), face, undefined);
}

describe('a repainted field', () => {
  it('the photo as taken passes, its fields checked; a field repainted over is found beside the portrait', async () => {
    const genuine = await photographed();
    const passed = await judged(genuine, 'genuine.jpg');
    expect(passed).toMatchObject({ performed: true, passed: true, data: { findings: [] } });
    expect(passed.performed && passed.data.checked).toContain('fields');
    // Saved again as it is: no paste, nothing found.
    const resaved = await judged(await sharp(genuine).jpeg({ quality: 90 }).toBuffer(), 'resaved.jpg');
    expect(resaved).toMatchObject({ passed: true });

    const altered = await judged(
      await repainted(genuine, { left: 325, top: 290, width: 300, height: 76 }),
      'repainted.jpg',
    );
    expect(altered).toMatchObject({
      performed: true,
      passed: false,
      code: 'alterationDetection.digitalAlteration',
      data: { findings: [{ region: 'fields', kind: 'mismatch' }] },
    });
  });
});
