import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sample } from '../../../e2e/fixtures/samples';
import { checkSelfiePhoto } from './check-input';
import type { StoredFile } from '@/checks/inputs/node/types';

// Issue 35: the DNI's front uploaded at the selfie step was accepted (its printed portrait is a
// face), and the face match then compared the portrait with itself. A selfie that shows a
// document's print is refused as not taken properly; the selfie sample is not.

async function stored(file: string): Promise<StoredFile> {
  return { path: file, filename: path.basename(file), size: (await stat(file)).size, format: 'jpeg' };
}

// Skipped: the refusal is switched off in check-input.ts until it stops refusing the e2e front
// camera's drawn face (issue 35 item 1).
describe.skip('a document sent as the selfie', () => {
  it.each(['ar-national-id-front.jpg', 'ar-passport.jpg'])('refuses %s as a selfie', async (file) => {
    const outcome = await checkSelfiePhoto(await stored(sample(file).path));
    expect(outcome.code).toBe('selfiePhoto.validationError');
    expect(outcome.message).toContain('document');
  });

  it('keeps the selfie sample', async () => {
    const outcome = await checkSelfiePhoto(await stored(sample('selfie.jpg').path));
    expect(outcome.code).toBeNull();
  });
});
