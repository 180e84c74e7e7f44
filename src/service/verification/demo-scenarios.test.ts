import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema } from '@/shared/contract/verification';
import { PERSON_MARKER, SCENARIO_MARKER } from '@/shared/error-codes';
import {
  createVerification,
  faceImage,
  noiseImage,
  passportImage,
  sendInput,
  startService,
  waitForStatus,
  withJpegComment,
  type RunningService,
} from '../testing/harness';

// Sample markers (`idv-person=`, `idv-scenario=` in a file's metadata) are read only with
// DEMO_SCENARIOS=on: anyone can write such metadata into a real photo. The same marked files are
// sent to a service with it off (the default) and one with it on.
const marker = `${PERSON_MARKER}${Buffer.from(JSON.stringify({ fullName: 'Sanctioned Marker Person', documentNumber: 'M1' })).toString('base64url')}`;
const inputs = [
  {
    inputType: 'document-photo',
    group: 0,
    data: { type: 'passport', country: 'AR', page: 'front', filename: 'passport.jpg' },
  },
  {
    inputType: 'document-photo',
    group: 1,
    data: { type: 'proof-of-residency', country: 'AR', page: 'front', filename: 'por.jpg' },
  },
  { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } },
];

async function sendMarked(svc: RunningService) {
  const v = await createVerification(svc, 'global-passport');
  const sent = await sendInput(svc, v.identity, inputs, [
    // A passport whose MRZ reads, with a person marker naming someone else.
    { field: 'document', name: 'passport.jpg', bytes: withJpegComment(await passportImage('ARG'), marker) },
    { field: 'document', name: 'por.jpg', bytes: await noiseImage(800, 640) },
    // A selfie with one open-eyed face, whose marker claims closed eyes.
    {
      field: 'selfie',
      name: 'selfie.jpg',
      bytes: withJpegComment(await faceImage(700, 700), `${SCENARIO_MARKER}selfiePhoto.closedEyes`),
    },
  ]);
  return { v, results: sent.body as { result: boolean; error?: { code: string } }[] };
}

describe('DEMO_SCENARIOS', () => {
  let off: RunningService;
  let on: RunningService;
  beforeAll(async () => {
    // The default is off: the harness turns it on for the sample-based tests, so it is unset here.
    off = await startService({ DEMO_SCENARIOS: '' });
    on = await startService({ DEMO_SCENARIOS: 'on' });
  });
  afterAll(async () => {
    await off.close();
    await on.close();
  });

  it(
    'off (the default): a marker changes nothing, the facts are what the pixels give',
    { timeout: 120_000 },
    async () => {
      expect(off.config.demoScenarios).toBe(false);
      const { v, results } = await sendMarked(off);
      expect(results.map((r) => r.result)).toEqual([true, true, true]);
      const data = verificationDataSchema.parse(
        await waitForStatus(off, v.id, ['verified', 'reviewNeeded', 'rejected'], 60_000),
      );
      const passport = data.documents[0];
      const read = passport.fields as Record<string, { value: unknown }>;
      // The name and number are the MRZ's, not the marker's; no synthetic watch list matched it.
      expect(read.fullName?.value).toBeTruthy();
      expect(JSON.stringify(passport)).not.toContain('Marker Person');
      expect(read.documentNumber?.value).not.toBe('M1');
      expect(data.identity.status).not.toBe('rejected');
      const step = (id: string) => passport.steps.find((s) => s.id === id);
      expect(step('watchlists')?.error).toMatchObject({ code: 'watchlists.notPerformed' });
      expect(step('watchlists')?.data).toMatchObject({ performed: false });
      // The document checks are performed from the pixels and the file, whatever the marker says.
      for (const id of ['watchlists', 'alteration-detection', 'template-matching']) {
        expect(JSON.stringify(step(id)), id).not.toContain('synthetic');
      }
      expect(step('template-matching')?.data).toMatchObject({ revision: { id: 'icao-td3' } });
      expect(step('alteration-detection')?.data).toMatchObject({ checked: expect.arrayContaining(['file']) });
    },
  );

  it('on: the markers decide, as the samples need', { timeout: 120_000 }, async () => {
    const { results } = await sendMarked(on);
    expect(results.map((r) => r.result)).toEqual([true, true, false]);
    expect(results[2].error?.code).toBe('selfiePhoto.closedEyes');
  });

  it.each(['yes', 'ON', ' '])('refuses to start on DEMO_SCENARIOS=%j', async (value) => {
    await expect(startService({ DEMO_SCENARIOS: value })).rejects.toThrow(
      /Invalid setting DEMO_SCENARIOS: expected on or off/,
    );
  });
});
