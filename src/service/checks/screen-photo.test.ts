import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onScreen } from '../../../e2e/fixtures/on-screen';
import { sample } from '../../../e2e/fixtures/samples';
import { checkDocumentPhoto, type DocumentPhotoContext } from './inputs/document-photo';
import type { StoredFile } from '@/checks/inputs/node/types';

// The project's passport sample as a phone would see it on a laptop's screen (e2e/fixtures/on-screen.ts)
// is refused as a screen's photo before its zone is read; the sample itself is not.

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

let onScreenFile: StoredFile;
beforeAll(async () => {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'screen-photo-')), 'passport-on-screen.jpg');
  await writeFile(file, await onScreen(sample('ar-passport.jpg').path));
  onScreenFile = await stored(file);
});

describe('documentPhoto.screenPhoto', () => {
  it('refuses the passport sample seen on a screen, before anything else is judged', async () => {
    const outcome = await checkDocumentPhoto(onScreenFile, passportPage);
    expect(outcome.code).toBe('documentPhoto.screenPhoto');
    expect(outcome.facts.screenShare).toBeGreaterThan(0.1);
  });

  it('keeps the passport sample itself', async () => {
    const outcome = await checkDocumentPhoto(await stored(sample('ar-passport.jpg').path), passportPage);
    expect(outcome.code).toBeNull();
    expect(outcome.facts.screenShare).toBe(0);
  });
});
