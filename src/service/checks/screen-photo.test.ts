import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../../../e2e/fixtures/samples';
import { checkDocumentPhoto, type DocumentPhotoContext } from './inputs/document-photo';
import type { StoredFile } from '@/checks/inputs/node/types';

// The project's passport sample as a phone would see it on a laptop's screen: the screen's red,
// green and blue subpixels beating against the camera's grid leave colour ripples over the whole
// picture (here drawn: a third of a period apart, 7 px at the sample's 1000 px, slanted). It is
// refused as a screen's photo before its zone is read; the sample itself is not.

const passportPage: DocumentPhotoContext = {
  type: 'passport',
  country: 'AR',
  page: 'front',
  requires: ['mrz'],
  faceRequired: true,
};

async function stored(file: string): Promise<StoredFile> {
  return { path: file, filename: path.basename(file), size: (await stat(file)).size, format: 'jpeg' };
}

let onScreen: StoredFile;
beforeAll(async () => {
  const { data, info } = await sharp(sample('ar-passport.jpg').path)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      for (let c = 0; c < 3; c++) {
        const i = (y * info.width + x) * 3 + c;
        const beat = 1 + 0.1 * Math.cos((2 * Math.PI * (x + 0.3 * y)) / 7 + (c * 2 * Math.PI) / 3);
        data[i] = Math.min(255, Math.round(data[i]! * beat));
      }
    }
  }
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'screen-photo-')), 'passport-on-screen.jpg');
  await sharp(data, { raw: info }).jpeg({ quality: 90 }).toFile(file);
  onScreen = await stored(file);
});

describe('documentPhoto.screenPhoto', () => {
  it('refuses the passport sample seen on a screen, before anything else is judged', async () => {
    const outcome = await checkDocumentPhoto(onScreen, passportPage);
    expect(outcome.code).toBe('documentPhoto.screenPhoto');
    expect(outcome.facts.screenShare).toBeGreaterThan(0.1);
  });

  it('keeps the passport sample itself', async () => {
    const outcome = await checkDocumentPhoto(await stored(sample('ar-passport.jpg').path), passportPage);
    expect(outcome.code).toBeNull();
    expect(outcome.facts.screenShare).toBe(0);
  });
});
