import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceMatch } from '@/checks/face/node/face-match';
import { inspectImage } from '@/checks/image/node/image';
import { sample } from '../../../e2e/fixtures/samples';
import { createVerification, sendInput, startService, type RunningService } from '../testing/harness';
import { checkSelfiePhoto } from './inputs/selfie-photo';
import { faceDescriptorOf } from './face-checks';
import type { InputFacts, StoredFile } from '@/checks/inputs/node/types';

// Issue 35: the DNI's front uploaded at the selfie step was accepted (its printed portrait is a
// face), and the face match then compared the portrait with itself. A selfie that shows a
// document (`selfieShowsDocument`) is refused as not taken properly; the selfie sample is not.

async function stored(file: string): Promise<StoredFile> {
  return { path: file, filename: path.basename(file), size: (await stat(file)).size, format: 'jpeg' };
}

describe('a document sent as the selfie', () => {
  it.each(['ar-national-id-front.jpg', 'ar-passport.jpg', 'gb-passport.jpg', 'mx-ine-front.jpg'])(
    'refuses %s as a selfie',
    async (file) => {
      const outcome = await checkSelfiePhoto(await stored(sample(file).path));
      expect(outcome.code).toBe('selfiePhoto.validationError');
      expect(outcome.message).toContain('document');
    },
  );

  it('keeps the selfie sample', async () => {
    const outcome = await checkSelfiePhoto(await stored(sample('selfie.jpg').path));
    expect(outcome.code).toBeNull();
  });
});

describe('a document sent as the selfie, over HTTP', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  });
  afterAll(() => svc.close());

  const selfie = (filename: string) => ({
    inputType: 'selfie-photo',
    data: { type: 'selfie-photo', filename },
  });
  type Result = { result: boolean; error?: { code: string; message: string } };

  it("refuses the DNI's front at the selfie step and accepts the selfie sample", async () => {
    const v = await createVerification(svc, 'ar-national-id');
    const send = async (file: string) => {
      const sent = await sendInput(
        svc,
        v.identity,
        [selfie(file)],
        [{ field: 'selfie', name: file, bytes: readFileSync(sample(file).path) }],
      );
      expect(sent.status).toBe(201);
      return (sent.body as Result[])[0]!;
    };
    const card = await send('ar-national-id-front.jpg');
    expect(card.result).toBe(false);
    expect(card.error?.code).toBe('selfiePhoto.validationError');
    expect(card.error?.message).toContain('document');
    const person = await send('selfie.jpg');
    expect(person.result).toBe(true);
  });
});

describe("the face match of the document's own picture", () => {
  // What the face match reads of each input: its face descriptor and its perceptual hash.
  async function factsOf(file: string): Promise<InputFacts> {
    const inspected = await inspectImage(sample(file).path, {});
    if (!inspected.ok) throw new Error(inspected.reason);
    return { faceDescriptor: await faceDescriptorOf(sample(file).path), phash: inspected.metrics.phash };
  }

  it('never passes the same picture as the selfie, whatever its score', async () => {
    const front = await factsOf('ar-national-id-front.jpg');
    const match = faceMatch(await factsOf('ar-national-id-front.jpg'), front);
    expect(match).toMatchObject({ passed: false, samePortrait: true });
    expect(match?.score).toBe(100);
  });

  it('never passes a face that is the same drawn portrait printed on another card', async () => {
    const match = faceMatch(
      await factsOf('br-driving-license-front.jpg'),
      await factsOf('ar-national-id-front.jpg'),
    );
    expect(match).toMatchObject({ passed: false, samePortrait: true });
  });

  it('passes the selfie sample against the DNI it was drawn for', async () => {
    const match = faceMatch(await factsOf('selfie.jpg'), await factsOf('ar-national-id-front.jpg'));
    expect(match?.passed).toBe(true);
    expect(match?.samePortrait).toBeUndefined();
  });
});
