import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema } from '@/shared/contract/verification';
import { FACE_MATCH_MIN_SIMILARITY } from '@/checks/face/face-rules';
import { makeNotDocuments } from '../../../scripts/make-not-documents';
import { sample } from '../../../e2e/fixtures/samples';
import { scanFileMarkers } from '@/checks/inputs/node/marker';
import {
  createVerification,
  noiseImage,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

// The checks that need a model, through the real API, on samples that carry no scenario marker:
// the code or the figure comes from the pixels alone.

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
});
afterAll(() => svc.close());

type Result = { result: boolean; error?: { code: string } };
const codesOf = (body: unknown) => (body as Result[]).map((r) => (r.result ? null : (r.error?.code ?? '?')));
const bytes = (file: string) => readFileSync(sample(file).path);

const passport = (filename: string, country: string) => ({
  inputType: 'document-photo',
  group: 0,
  data: { type: 'passport', country, page: 'front', filename },
});
const residency = {
  inputType: 'document-photo',
  group: 1,
  data: { type: 'proof-of-residency', country: 'GB', page: 'front', filename: 'bill.jpg' },
};
const selfie = (filename: string) => ({
  inputType: 'selfie-photo',
  data: { type: 'selfie-photo', filename },
});

describe('codes from the pixels alone (no marker)', () => {
  it('the samples used here carry no scenario marker', async () => {
    for (const file of [
      'selfie-no-face.jpg',
      'selfie-multiple-faces.jpg',
      'selfie-closed-eyes.jpg',
      'selfie-other-person.jpg',
      'video-no-face.mp4',
      'video-multiple-faces.webm',
      'document-no-mrz.jpg',
      'document-bad-mrz.jpg',
      'document-country-mismatch.jpg',
      'document-type-mismatch.jpg',
      'document-bad-pdf417.jpg',
      'document-no-face.jpg',
      'us-passport-expired.jpg',
    ]) {
      const markers = await scanFileMarkers(sample(file).path);
      expect(markers.scenario, file).toBeUndefined();
    }
  });

  it('refuses selfies with no face, two faces, closed eyes, and a noise photo as no face', async () => {
    const v = await createVerification(svc, 'global-passport');
    const answers: (string | null)[] = [];
    for (const file of ['selfie-no-face.jpg', 'selfie-multiple-faces.jpg', 'selfie-closed-eyes.jpg']) {
      const sent = await sendInput(
        svc,
        v.identity,
        [selfie(file)],
        [{ field: 'selfie', name: file, bytes: bytes(file) }],
      );
      answers.push(...codesOf(sent.body));
    }
    expect(answers).toEqual(['selfiePhoto.noFace', 'selfiePhoto.multipleFaces', 'selfiePhoto.closedEyes']);
    const green = await noiseImage(700, 700);
    const noise = await sendInput(
      svc,
      v.identity,
      [selfie('n.jpg')],
      [{ field: 'selfie', name: 'n.jpg', bytes: green }],
    );
    expect(codesOf(noise.body)).toEqual(['selfiePhoto.noFace']);
  });

  it('refuses passports with no MRZ, a corrupted MRZ, an MRZ of another country or type', async () => {
    const cases: [string, string, string][] = [
      ['document-no-mrz.jpg', 'AR', 'documentPhoto.noMrz'],
      ['document-bad-mrz.jpg', 'GB', 'documentPhoto.badMrz'],
      ['document-country-mismatch.jpg', 'AR', 'documentPhoto.countryMismatch'],
      ['document-type-mismatch.jpg', 'AR', 'documentPhoto.typeMismatch'],
    ];
    for (const [file, country, code] of cases) {
      const v = await createVerification(svc, 'global-passport');
      const sent = await sendInput(
        svc,
        v.identity,
        [passport(file, country)],
        [{ field: 'document', name: file, bytes: bytes(file) }],
      );
      expect(codesOf(sent.body), file).toEqual([code]);
    }
  });

  it('refuses a screenshot of text sent as a DNI front or a passport page as no document', async () => {
    // scripts/make-not-documents.ts: a news page in a phone browser and in a desktop one.
    const pictures = await makeNotDocuments(['text-page-phone.png', 'text-page-desktop.png']);
    const screenshot = (name: string) => pictures.find((p) => p.name === name)!.bytes;
    const dni = await createVerification(svc, 'ar-national-id');
    const asFront = await sendInput(
      svc,
      dni.identity,
      [
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'national-id', country: 'AR', page: 'front', filename: 'f.png' },
        },
      ],
      [{ field: 'document', name: 'f.png', bytes: screenshot('text-page-phone.png') }],
    );
    expect(codesOf(asFront.body)).toEqual(['documentPhoto.noDocument']);
    const page = await createVerification(svc, 'global-passport');
    const asPage = await sendInput(
      svc,
      page.identity,
      [passport('p.png', 'GB')],
      [{ field: 'document', name: 'p.png', bytes: screenshot('text-page-desktop.png') }],
    );
    expect(codesOf(asPage.body)).toEqual(['documentPhoto.noDocument']);
  });

  it('refuses a DNI back whose PDF417 holds no DNI record', async () => {
    const v = await createVerification(svc, 'ar-national-id');
    const sent = await sendInput(
      svc,
      v.identity,
      [
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'national-id', country: 'AR', page: 'front', filename: 'f.jpg' },
        },
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'national-id', country: 'AR', page: 'back', filename: 'b.jpg' },
        },
      ],
      [
        { field: 'document', name: 'f.jpg', bytes: bytes('ar-national-id-front.jpg') },
        { field: 'document', name: 'b.jpg', bytes: bytes('document-bad-pdf417.jpg') },
      ],
    );
    expect(codesOf(sent.body)).toEqual([null, 'documentPhoto.badPdf417']);
  });
});

describe('face match and expiry computed from the pixels', () => {
  async function passportVerification(passportFile: string, country: string, selfieFile: string) {
    const v = await createVerification(svc, 'global-passport');
    const sent = await sendInput(
      svc,
      v.identity,
      [passport('p.jpg', country), residency, selfie('s.jpg')],
      [
        { field: 'document', name: 'p.jpg', bytes: bytes(passportFile) },
        { field: 'document', name: 'bill.jpg', bytes: bytes('gb-proof-of-residency.jpg') },
        { field: 'selfie', name: 's.jpg', bytes: bytes(selfieFile) },
      ],
    );
    expect(codesOf(sent.body)).toEqual([null, null, null]);
    return verificationDataSchema.parse(
      await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']),
    );
  }

  it('passes the face match for the same face, reads the expiry from the MRZ', async () => {
    const data = await passportVerification('us-passport-expired.jpg', 'US', 'selfie.jpg');
    const [passportDoc, bill] = data.documents;
    const match = passportDoc.steps.find((s) => s.id === 'facematch');
    expect(match?.error ?? null).toBeNull();
    expect(Number((match?.data as { score: number }).score)).toBeGreaterThanOrEqual(
      FACE_MATCH_MIN_SIMILARITY * 100,
    );
    // A utility bill has no portrait: no face match step.
    expect(bill.steps.map((s) => s.id)).not.toContain('facematch');
    // The sample has no person marker: the expiry (2021-03-01) was read from its MRZ.
    expect(data.computed?.isDocumentExpired?.data).toMatchObject({ passport: true });
    expect(data.identity.status).toBe('reviewNeeded');
  });

  it('fails the face match between two different faces', async () => {
    const data = await passportVerification('gb-passport.jpg', 'GB', 'selfie-other-person.jpg');
    const match = data.documents[0].steps.find((s) => s.id === 'facematch');
    expect(match?.error?.code).toBe('facematch.mismatch');
    expect(Number((match?.data as { score: number }).score)).toBeLessThan(FACE_MATCH_MIN_SIMILARITY * 100);
    // (ext) The pass mark beside the score: a failed "82.6 %" says what it fell short of (issue 35).
    expect((match?.data as { passMark: number }).passMark).toBe(84.16);
    expect(data.identity.status).toBe('reviewNeeded');
  });
});
