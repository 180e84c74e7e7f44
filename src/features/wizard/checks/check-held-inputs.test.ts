import { describe, expect, it } from 'vitest';
import { buildSteps } from '../lib/steps';
import { planInputs, type Capture, type StoredFile } from '../lib/wizard-model';
import { checkHeldInputs } from './check-held-inputs';

const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0])], {
  type: 'image/jpeg',
});
const pdf = new Blob(['%PDF-1.7\n%âãÏÓ\n'], { type: 'application/pdf' });
const text = new Blob(['not a photo at all'], { type: 'text/plain' });

const stored = (key: string, extra: Partial<StoredFile> = {}): StoredFile => ({
  key,
  name: `${key}.jpg`,
  size: 1000,
  type: 'image/jpeg',
  ...extra,
});

const steps = buildSteps({
  merits: [
    {
      type: 'document-verification',
      documents: [{ types: ['national-id'], countries: ['AR'], regions: {}, requires: [] }],
    },
    { type: 'biometric-verification', input: 'selfie-photo' },
    {
      type: 'custom-document',
      documents: [{ type: 'custom-proof-of-address', multiPage: false, sides: 'one' }],
    },
  ],
});

describe('checkHeldInputs', () => {
  it('tells every refusal at once: two alike sides (the later one), a lost file, a wrong format, too many pages', async () => {
    const captures: Record<string, Capture> = {
      'document-0': {
        kind: 'document',
        type: 'national-id',
        country: 'AR',
        front: stored('front', { phash: 'ffff0000ffff0000', capturedAt: 3 }),
        back: stored('back', { phash: 'ffff0000ffff0001', capturedAt: 2 }),
      },
      biometric: { kind: 'biometric', file: stored('selfie') },
      'custom-document-1': {
        kind: 'custom-document',
        mode: 'pdf',
        pdf: stored('proof', { type: 'application/pdf', pages: 3 }),
      },
    };
    const blobs: Record<string, Blob> = { front: jpeg, back: jpeg, proof: pdf };
    const planned = planInputs(steps, captures);
    const refused = await checkHeldInputs(planned, planned, steps, async (key) => blobs[key]);
    expect(Object.fromEntries(Object.entries(refused).map(([id, e]) => [id, e.code]))).toEqual({
      'doc-0-front': 'client.similarSides',
      selfie: 'client.fileMissing',
      'custom-1-multi': 'CustomDocumentPhoto.multiPageInputError',
    });
    expect(refused.selfie.type).toBe('ClientCheck');

    const wrong = await checkHeldInputs(planned, planned, steps, async (key) =>
      key === 'selfie' ? text : blobs[key],
    );
    expect(wrong.selfie.code).toBe('client.wrongFormat');
  });

  it('refuses nothing that the captures alone allow; the same picture as an accepted side is refused', async () => {
    const captures: Record<string, Capture> = {
      'document-0': {
        kind: 'document',
        type: 'national-id',
        country: 'AR',
        front: stored('front', { phash: 'ffff0000ffff0000' }),
        back: stored('back', { phash: '0000ffff0000ffff' }),
      },
      biometric: { kind: 'biometric', file: stored('selfie') },
    };
    const planned = planInputs(steps, captures);
    const all = async () => jpeg;
    expect(await checkHeldInputs(planned, planned, steps, all)).toEqual({});

    const alike = planInputs(steps, {
      ...captures,
      'document-0': {
        ...captures['document-0'],
        back: stored('back2', { phash: 'ffff0000ffff0000' }),
      } as Capture,
    });
    const onlyBack = alike.filter((input) => input.id === 'doc-0-back');
    const refused = await checkHeldInputs(onlyBack, alike, steps, all);
    expect(refused['doc-0-back']?.code).toBe('client.similarSides');

    // Merely alike (8 bits apart: cards of one design): the service tells it by what the side shows.
    const merelyAlike = planInputs(steps, {
      ...captures,
      'document-0': {
        ...captures['document-0'],
        back: stored('back3', { phash: 'ffff0000ffff00ff' }),
      } as Capture,
    });
    const back = merelyAlike.filter((input) => input.id === 'doc-0-back');
    expect(await checkHeldInputs(back, merelyAlike, steps, all)).toEqual({});
  });
});
