import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMrzBands, stretchContrast } from '@/shared/mrz-band';
import { sample } from '../../../e2e/fixtures/samples';
import { inspectImage } from './image';
import { closeMrzReader, readMrz, readMrzBands } from './mrz';

/** The grey pixels `readMrz` looks at, at the OCR width. */
async function grey(path: string) {
  const { data, info } = await sharp(path)
    .resize({ width: 1000 })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { grey: stretchContrast(new Uint8Array(data)), width: info.width, height: info.height };
}

describe('MRZ band finder', () => {
  it('finds the two TD3 lines at the foot of a passport and the three TD1 lines of a card back', async () => {
    for (const [file, lines] of [
      ['gb-passport.jpg', 2],
      ['mx-ine-back.jpg', 3],
    ] as const) {
      const { grey: px, width, height } = await grey(sample(file).path);
      const [band] = findMrzBands(px, width, height);
      // The MRZ lines of the samples are drawn 40 px apart, their last baseline 30 px above the foot.
      expect(band.top, file).toBeGreaterThan(height - 30 - lines * 40 - 30);
      expect(band.top + band.height, file).toBeGreaterThan(height - 40);
      expect(band.height / band.lineHeight, file).toBeLessThan(lines * 2 + 1);
    }
  });

  it('finds no band on a selfie (no OCR runs there)', async () => {
    const { grey: px, width, height } = await grey(sample('selfie.jpg').path);
    expect(findMrzBands(px, width, height)).toEqual([]);
  });
});

describe('readMrz', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrz-'));
  });
  afterAll(async () => {
    await closeMrzReader();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads valid, corrupted and TD1 zones, and none on a card without one', async () => {
    const valid = await readMrz(sample('gb-passport.jpg').path);
    expect(valid).toMatchObject({ found: true, valid: true, issuingState: 'GBR', documentCode: 'P' });
    expect(await readMrz(sample('document-bad-mrz.jpg').path)).toMatchObject({ found: true, valid: false });
    expect(await readMrz(sample('document-type-mismatch.jpg').path)).toMatchObject({
      found: true,
      valid: true,
      issuingState: 'ARG',
      documentCode: 'I',
    });
    expect(await readMrz(sample('document-no-mrz.jpg').path)).toEqual({ found: false });
  });

  it('reads a passport that fills a small part of the photo, and one photographed askew', async () => {
    const passport = sample('gb-passport.jpg').path;
    const framed = join(dir, 'framed.jpg');
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#6b5b4b' } })
      .composite([{ input: await sharp(passport).resize(900).toBuffer(), left: 350, top: 300 }])
      .jpeg()
      .toFile(framed);
    const askew = join(dir, 'askew.jpg');
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#444444' } })
      .composite([
        { input: await sharp(passport).rotate(4, { background: '#444444' }).toBuffer(), left: 200, top: 200 },
      ])
      .jpeg()
      .toFile(askew);
    for (const file of [framed, askew])
      expect(await readMrz(file), file).toMatchObject({ found: true, valid: true, issuingState: 'GBR' });
  });

  it("reads the bands send-input gets from the image check's one decode, as from the file", async () => {
    const passport = sample('gb-passport.jpg').path;
    // A large landscape photo: its one decode, 1024 wide, is where the bands are found.
    const large = join(dir, 'large.jpg');
    await sharp(passport).resize(3000).jpeg({ quality: 90 }).toFile(large);
    // A portrait photo: its decode is too narrow, so the finder decodes at the OCR's width.
    const portrait = join(dir, 'portrait.jpg');
    await sharp({ create: { width: 1200, height: 1800, channels: 3, background: '#6b5b4b' } })
      .composite([{ input: await sharp(passport).resize(1100).toBuffer(), left: 50, top: 600 }])
      .jpeg()
      .toFile(portrait);
    for (const file of [
      passport,
      large,
      portrait,
      ...['document-bad-mrz.jpg', 'document-no-mrz.jpg'].map((f) => sample(f).path),
    ]) {
      const inspected = await inspectImage(file, { mrz: true });
      if (!inspected.ok || !inspected.mrzBands) throw new Error(`${file}: no bands`);
      expect(await readMrzBands(inspected.mrzBands), file).toEqual(await readMrz(file));
    }
    const selfie = await inspectImage(sample('selfie.jpg').path, { mrz: true });
    expect(selfie.ok && selfie.mrzBands).toEqual([]);
  });
});
