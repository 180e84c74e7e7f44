import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_MARKER } from '@/shared/error-codes';
import { verificationDataSchema } from '@/shared/contract/verification';
import type { Person } from '@/checks/inputs/node/types';
import {
  createVerification,
  getVerification,
  faceImage,
  noiseImage,
  passportImage,
  sendInput,
  startService,
  waitForStatus,
  withJpegComment,
  type RunningService,
} from '../../testing/harness';
import { tempDataDir } from '../../testing/temp-dirs';

const personMarker = (p: Person) => `${PERSON_MARKER}${Buffer.from(JSON.stringify(p)).toString('base64url')}`;

const passport = (filename: string) => ({
  inputType: 'document-photo',
  group: 0,
  data: { type: 'passport', country: 'AR', page: 'front', filename },
});
const residency = (page: 'front' | 'back', filename: string, country = 'MX') => ({
  inputType: 'document-photo',
  group: 1,
  data: { type: 'proof-of-residency', country, page, filename },
});
const selfie = { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } };

let photo: () => Promise<Buffer>;
beforeAll(() => {
  photo = () => noiseImage(800, 640);
});
/** The passports here are claimed as Argentine: their MRZ says ARG. */
const passportPhoto = () => passportImage('ARG');

async function passportFlowInputs(svc: RunningService, identity: string, residencyCountry = 'MX') {
  return sendInput(
    svc,
    identity,
    [passport('passport.jpg'), residency('front', 'por.jpg', residencyCountry), selfie],
    [
      { field: 'document', name: 'passport.jpg', bytes: await passportPhoto() },
      { field: 'document', name: 'por.jpg', bytes: await photo() },
      { field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) },
    ],
  );
}

describe('verification creation', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('creates a verification (new form) with the flow inputs', async () => {
    const v = await createVerification(svc, 'mx-ine-full', { userId: 'u-1', n: 3 });
    expect(v).toMatchObject({
      flow: { id: 'mx-ine-full' },
      metadata: { userId: 'u-1', n: 3 },
      expired: false,
      documents: [],
      deviceFingerprint: { ip: '127.0.0.1', vpnDetectionEnabled: false },
      hasProblem: false,
      inputs: [
        { id: 'connection-data', status: 200 },
        { id: 'document-photo', group: 0, status: 0 },
        { id: 'selfie-video', status: 0 },
        { id: 'custom-document-photo', group: 1, status: 0 },
        { id: 'custom-fields', status: 0 },
      ],
    });
    const data = await getVerification(svc, v.id);
    expect(verificationDataSchema.parse(data).identity.status).toBe('pending');
  });

  it('keeps the legacy POST /v2/identities working', async () => {
    const response = await fetch(`${svc.url}/v2/identities`, {
      method: 'POST',
      headers: { ...svc.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'ar-national-id', metadata: { a: 'b' } }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toMatchObject({ status: 'pending', flowId: 'ar-national-id', metadata: { a: 'b' } });
    expect(body._id).toMatch(/^[0-9a-f]{24}$/);
    const send = await sendInput(svc, body._id, 'not json');
    expect(send.status).toBe(400);
  });

  it('refuses unknown flows (404) and invalid bodies (400)', async () => {
    const post = (body: unknown) =>
      fetch(`${svc.url}/v2/verifications`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const unknown = await post({ flowId: 'nope' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ name: 'EntityNotFoundError', status: 404, statusCode: 404 });
    expect((await post({ flowId: 'br-bank', metadata: { big: 'x'.repeat(5000) } })).status).toBe(400);
    expect((await post({ flowId: 'br-bank', metadata: 'not json' })).status).toBe(400);
    expect((await post({ flowId: 'br-bank', metadata: [1, 2] })).status).toBe(400);
    expect((await post({ identityId: 'no-such-identity' })).status).toBe(404);
    const missing = await fetch(`${svc.url}/v2/verifications/nope`, { headers: svc.auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 404, name: 'EntityNotFoundError', statusCode: 404 });
  });
});

describe('upload wait for a missing back side', () => {
  it('starts a one-or-two-sided front after UPLOAD_WAIT_SECONDS, and resumes the wait after a restart', async () => {
    const dataDir = tempDataDir();
    let svc = await startService({ UPLOAD_WAIT_SECONDS: '2' }, dataDir);
    const v = await createVerification(svc, 'global-passport');
    const sent = await passportFlowInputs(svc, v.identity);
    expect(sent.status).toBe(201);
    expect((await getVerification(svc, v.id)).identity.status).toBe('pending');
    // A stop during the wait: the deadline is in the database, the next start keeps it.
    await svc.close();
    svc = await startService({ UPLOAD_WAIT_SECONDS: '2' }, dataDir);
    const done = await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']);
    expect(done.documents).toHaveLength(2);
    await svc.close();
  });

  it('starts at once when the back arrives, and a skip starts it with the front only', async () => {
    const svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
    const a = await createVerification(svc, 'global-passport');
    await passportFlowInputs(svc, a.identity);
    expect((await getVerification(svc, a.id)).identity.status).toBe('pending');
    const back = await sendInput(
      svc,
      a.identity,
      [residency('back', 'back.jpg')],
      [{ field: 'document', name: 'back.jpg', bytes: await photo() }],
    );
    expect(back.status).toBe(201);
    const doneA = await waitForStatus(svc, a.id, ['verified', 'reviewNeeded', 'rejected']);
    expect((doneA.documents as { photos: string[] }[])[1].photos).toHaveLength(2);

    const b = await createVerification(svc, 'global-passport');
    await passportFlowInputs(svc, b.identity);
    const skip = await fetch(`${svc.url}/v2/verifications/${b.id}/inputs/document-photo/skip`, {
      method: 'PUT',
      headers: svc.auth,
    });
    expect(skip.status).toBe(204);
    const doneB = await waitForStatus(svc, b.id, ['verified', 'reviewNeeded', 'rejected']);
    expect((doneB.documents as { photos: string[] }[])[1].photos).toHaveLength(1);
    const unknown = await fetch(`${svc.url}/v2/verifications/nope/inputs/document-photo/skip`, {
      method: 'PUT',
      headers: svc.auth,
    });
    expect(unknown.status).toBe(404);
    await svc.close();
  });

  it('starts a one-sided document at once (no wait)', async () => {
    const svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
    const v = await createVerification(svc, 'global-passport');
    await passportFlowInputs(svc, v.identity, 'AR'); // an Argentine proof of residency has one side
    await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']);
    await svc.close();
  });
});

describe('restarts', () => {
  it('finishes processing that a stop interrupted, and keeps the media', async () => {
    const dataDir = tempDataDir();
    let svc = await startService({ PROCESSING_STEP_MS: '400' }, dataDir);
    const v = await createVerification(svc, 'global-passport');
    await passportFlowInputs(svc, v.identity, 'AR');
    const running = await waitForStatus(svc, v.id, ['running']);
    expect(running.identity.status).toBe('running');
    await svc.close();
    svc = await startService({ PROCESSING_STEP_MS: '0' }, dataDir);
    const done = await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']);
    const photos = (done.documents as { photos: string[] }[]).flatMap((d) => d.photos);
    expect(photos).toHaveLength(2);
    for (const url of photos) {
      const media = await fetch(url, { headers: svc.auth });
      expect(media.status).toBe(200);
      expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    await svc.close();
  });
});

describe('verification data', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  });
  afterAll(() => svc.close());

  it('reads the person into fields, computes age and expiry, links media', async () => {
    const person: Person = {
      fullName: 'Ana María Pérez',
      dateOfBirth: '1990-05-17',
      documentNumber: 'AAB123456',
      expiryDate: '2031-01-01',
      nationality: 'ARG',
    };
    const v = await createVerification(svc, 'global-passport', { ref: 'x' });
    const markedPassport = withJpegComment(await passportPhoto(), personMarker(person));
    const sent = await sendInput(
      svc,
      v.identity,
      [passport('passport.jpg'), residency('front', 'por.jpg', 'AR'), selfie],
      [
        { field: 'document', name: 'passport.jpg', bytes: markedPassport },
        { field: 'document', name: 'por.jpg', bytes: await photo() },
        { field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) },
      ],
    );
    expect((sent.body as { result: boolean }[]).every((r) => r.result)).toBe(true);
    const data = verificationDataSchema.parse(
      await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']),
    );
    expect(data.metadata).toEqual({ ref: 'x' });
    const [doc] = data.documents;
    expect(doc).toMatchObject({ type: 'passport', country: 'AR' });
    expect(doc.fields).toMatchObject({
      dateOfBirth: { value: '1990-05-17', format: 'date' },
      fullName: { value: 'Ana María Pérez', label: 'Name', sensitive: true },
      documentNumber: { value: 'AAB123456', label: 'Document Number' },
      expirationDate: { value: '2031-01-01', format: 'date' },
    });
    // The hosted API's shape: the read fields are the document-reading step's data itself.
    const reading = doc.steps.find((s) => s.id === 'document-reading')!;
    expect(reading.data).toEqual(doc.fields);
    expect(data.steps[0].data).toMatchObject({
      selfiePhotoUrl: expect.stringMatching(/\/media\/[0-9a-f]{32}$/),
    });
    expect(doc.steps.map((s) => s.id)).toEqual([
      'document-reading',
      'facematch',
      'watchlists',
      'alteration-detection',
      'template-matching',
      'argentinian-govcheck-validation',
    ]);
    // The proof of residency has no person: its reading fails, which asks for a review.
    expect(data.documents[1].steps.find((s) => s.id === 'document-reading')?.error).toBeTruthy();
    expect(data.identity.status).toBe('reviewNeeded');
    expect(data.computed?.age?.data).toBeGreaterThanOrEqual(35);
    expect(data.computed?.isDocumentExpired?.data).toEqual({ passport: false, 'proof-of-residency': false });
    expect(data.steps.map((s) => s.id)).toEqual(['selfie', 'ip-validation']);
    expect(data.steps.every((s) => s.status === 200)).toBe(true);

    const media = await fetch(doc.photos[0], { headers: svc.auth });
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await media.arrayBuffer()).equals(markedPassport)).toBe(true);
    expect((await fetch(doc.photos[0])).status).toBe(401);
    expect((await fetch(`${svc.url}/media/${'0'.repeat(32)}`, { headers: svc.auth })).status).toBe(404);
  });

  it('rejects a name on the synthetic watch-list, and accepts a manual review', async () => {
    const v = await createVerification(svc, 'global-passport');
    const sanctioned = withJpegComment(
      await passportPhoto(),
      personMarker({
        fullName: 'Sanctioned Person',
        dateOfBirth: '1980-01-01',
        documentNumber: 'X1',
        expiryDate: '2030-01-01',
      }),
    );
    const residencyPhoto = withJpegComment(await photo(), personMarker({ fullName: 'Sanctioned Person' }));
    await sendInput(
      svc,
      v.identity,
      [passport('p.jpg'), residency('front', 'r.jpg', 'AR'), selfie],
      [
        { field: 'document', name: 'p.jpg', bytes: sanctioned },
        { field: 'document', name: 'r.jpg', bytes: residencyPhoto },
        { field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) },
      ],
    );
    const data = await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']);
    expect(data.identity.status).toBe('rejected');
    const review = await fetch(`${svc.url}/v2/verifications/${v.id}/status`, {
      method: 'PUT',
      headers: { ...svc.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'verified' }),
    });
    expect(review.status).toBe(200);
    expect(((await review.json()) as { identity: { status: string } }).identity.status).toBe('verified');
  });
});
