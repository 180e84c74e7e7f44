import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_MARKER, SCENARIO_MARKER } from '@/shared/error-codes';
import { createdIdentitySchema, serviceErrorSchema } from '@/shared/contract/service-api';
import { verificationDataSchema, type VerificationData } from '@/shared/contract/verification';
import { zoneCardBackPhoto } from '../../../../e2e/fixtures/face-photo';
import { voterCardMrz } from '../../../../e2e/fixtures/mrz-lines';
import { sample } from '../../../../e2e/fixtures/samples';
import type { Person } from '@/checks/inputs/node/types';
import {
  faceImage,
  noiseImage,
  passportImage,
  sendInput,
  startService,
  waitForStatus,
  withJpegComment,
  type RunningService,
} from '../../testing/harness';
import { fieldDescriptions, hostedFixture, shapeDifferences, stepData } from '../../testing/hosted-shape';

// The hosted API's public clients read its answers key by key; these hold the service's answers,
// with its extensions off, against hand-written bodies in the hosted API's recorded shape
// (src/shared/contract/fixtures/hosted-*.json). Issue 22, items 1-4 and 6.

const recordedIne = verificationDataSchema.parse(hostedFixture('hosted-verification-ine.json'));
const recordedSelfie = verificationDataSchema.parse(hostedFixture('hosted-verification-selfie.json'));
const recordedIdentity = createdIdentitySchema.parse(hostedFixture('hosted-identity.json'));
const documentOf = (data: VerificationData, type: string) => data.documents.find((d) => d.type === type)!;

/** Processing reads faces and an MRZ: slow on a busy machine. */
const processingWait = 90_000;
const slow = 180_000;

const personMarker = (p: Person) => `${PERSON_MARKER}${Buffer.from(JSON.stringify(p)).toString('base64url')}`;
const samplePart = (field: string, file: string) => ({
  field,
  name: file,
  bytes: fs.readFileSync(sample(file).path),
});

describe('answers in the hosted API shape (SERVICE_EXTENSIONS=off)', () => {
  let svc: RunningService;
  const post = (path: string, body: unknown) =>
    fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: { ...svc.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

  beforeAll(async () => {
    svc = await startService({ SERVICE_EXTENSIONS: 'off', DEFAULT_FLOW_ID: 'global-passport' });
  });
  afterAll(() => svc.close());

  /** A global-passport verification made with `flowId: null`, completed with the given residency proof. */
  async function passportWithResidency(residency: Buffer) {
    const created = await post('/v2/verifications', { flowId: null, metadata: { user: 'u-7' } });
    expect(created.status).toBe(200);
    const v = (await json(created)) as { id: string; identity: string; flow: { id: string } };
    expect(v.flow.id).toBe('global-passport');
    const person = { fullName: 'JUAN PEREZ', dateOfBirth: '1985-01-01', expiryDate: '2032-12-31' };
    const sent = await sendInput(
      svc,
      v.identity,
      [
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'passport', country: 'MX', page: 'front', filename: 'p.jpg' },
        },
        {
          inputType: 'document-photo',
          group: 1,
          data: { type: 'proof-of-residency', country: 'GB', page: 'front', filename: 'r.jpg' },
        },
        { inputType: 'selfie-photo', data: { filename: 's.jpg' } },
      ],
      [
        {
          field: 'document',
          name: 'p.jpg',
          bytes: withJpegComment(await passportImage('MEX'), personMarker(person)),
        },
        { field: 'document', name: 'r.jpg', bytes: residency },
        { field: 'selfie', name: 's.jpg', bytes: await faceImage(700, 700) },
      ],
    );
    expect(sent.status).toBe(201);
    return verificationDataSchema.parse(
      await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], processingWait),
    );
  }
  // One verification with a read proof of residency serves items 1, 3 and 4 (face and MRZ
  // reading make each one slow).
  let withReadProof: Promise<VerificationData> | undefined;
  const readProofVerification = () =>
    (withReadProof ??= passportWithResidency(fs.readFileSync(sample('gb-proof-of-residency.jpg').path)));

  it(
    '1: the selfie step gives its photo as selfiePhotoUrl, a URL of the photo',
    async () => {
      const data = await readProofVerification();
      const ours = stepData(data, 'selfie');
      expect(shapeDifferences(stepData(recordedSelfie, 'selfie'), ours)).toEqual([]);
      expect(ours).not.toHaveProperty('selfieUrl');
      expect((await fetch(ours!.selfiePhotoUrl as string, { headers: svc.auth })).status).toBe(200);
    },
    slow,
  );

  it(
    '2: a Mexican voter card reads its elector key (cde) and OCR number; the CURP registry gives the names',
    async () => {
      const { person } = sample('mx-ine-front.jpg');
      // Read from the back's zone (issue 39, item 5): no marker says it.
      const ocrNumber = '0912345678901';
      const created = await post('/v2/verifications', { flowId: 'mx-ine-full' });
      const v = (await json(created)) as { id: string; identity: string };
      const ine = (page: 'front' | 'back', filename: string) => ({
        inputType: 'document-photo',
        group: 0,
        data: { type: 'national-id', country: 'MX', page, filename },
      });
      const field = (name: string, type: string, value: string) => ({
        name,
        type: 'atomic',
        atomicFieldParams: { type, value },
      });
      // A back whose TD1 zone holds its check digits: the CIC, then the OCR number.
      const back = await zoneCardBackPhoto(voterCardMrz(person!, '123456789', ocrNumber));
      const sent = await sendInput(
        svc,
        v.identity,
        [
          ine('front', 'mx-ine-front.jpg'),
          ine('back', 'back.jpg'),
          { inputType: 'selfie-video', data: { filename: 'liveness.webm' } },
          {
            inputType: 'custom-document-photo',
            group: 1,
            data: { type: 'custom-proof-of-address', page: 'front', filename: 'custom-proof-of-address.pdf' },
          },
          {
            inputType: 'custom-fields',
            data: {
              country: 'MX',
              fields: [
                field('curp', 'text', person!.curp!),
                field('rfc', 'text', person!.rfc!),
                field('occupation', 'select', 'employee'),
                field('declaration', 'checkbox', 'true'),
              ],
            },
          },
        ],
        [
          samplePart('document', 'mx-ine-front.jpg'),
          { field: 'document', name: 'back.jpg', bytes: back },
          samplePart('video', 'liveness.webm'),
          samplePart('custom-document', 'custom-proof-of-address.pdf'),
        ],
      );
      expect(sent.status).toBe(201);
      const data = verificationDataSchema.parse(
        await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], processingWait),
      );
      const [recordedCard, ourCard] = [
        documentOf(recordedIne, 'national-id'),
        documentOf(data, 'national-id'),
      ];
      const reading = stepData(ourCard, 'document-reading')!;
      // Every field the recording has, with its label, format and flags.
      const recordedReading = stepData(recordedCard, 'document-reading');
      expect(shapeDifferences(recordedReading, reading)).toEqual([]);
      expect(fieldDescriptions(reading)).toMatchObject(fieldDescriptions(recordedReading));
      expect(reading.cde).toEqual({ value: 'MSEJMR90021509M100', label: 'Elector Key' });
      expect(reading.ocrNumber).toEqual({ value: ocrNumber, label: 'OCR Number' });
      expect(ourCard.fields).toEqual(reading);
      // The region of an identity document is a string, as recorded (`""` when none was sent).
      expect(recordedCard.region).toBe('');
      expect(ourCard.region).toBe('');

      const curp = stepData(ourCard, 'mexican-curp-validation');
      expect(shapeDifferences(stepData(recordedCard, 'mexican-curp-validation'), curp)).toEqual([]);
      expect(curp).toMatchObject({
        curp: person!.curp,
        fullName: 'MUESTRA EJEMPLO MARIA GUADALUPE',
        birthDate: '15/02/1990',
        gender: 'MUJER',
        nationality: 'MEXICO',
        surname: 'MUESTRA',
        secondSurname: 'EJEMPLO',
        name: 'MARIA GUADALUPE',
      });

      // 4: the custom-field answers are the embedded service's own key, off with its extensions.
      expect(data).not.toHaveProperty('customFields');
    },
    slow,
  );

  it(
    '3: a proof of residency reads the holder name as required, without the sensitive flag',
    async () => {
      const read = await readProofVerification();
      const recordedProof = stepData(documentOf(recordedIne, 'proof-of-residency'), 'document-reading');
      const ours = stepData(documentOf(read, 'proof-of-residency'), 'document-reading');
      expect(shapeDifferences(recordedProof, ours)).toEqual([]);
      expect(fieldDescriptions(ours)).toMatchObject(fieldDescriptions(recordedProof));
      expect(ours!.fullName).toEqual({ value: 'ALEX SPECIMEN', label: 'Name', required: true });
      // Regions as recorded: a string on the identity document, null on a proof of residency.
      expect(documentOf(recordedIne, 'proof-of-residency').region).toBeNull();
      expect(documentOf(read, 'proof-of-residency').region).toBeNull();
      expect(documentOf(read, 'passport').region).toBe('');
      // The passport's holder name is marked sensitive, as on the recorded identity document.
      expect(stepData(documentOf(read, 'passport'), 'document-reading')!.fullName).toMatchObject({
        label: 'Name',
        sensitive: true,
      });

      // Nothing read: the required name is there without a value, so a client reports it missing.
      const unread = await passportWithResidency(await noiseImage(800, 640));
      const empty = stepData(documentOf(unread, 'proof-of-residency'), 'document-reading');
      expect(empty!.fullName).toEqual({ value: null, label: 'Name', required: true });
      expect(fieldDescriptions(empty)).toEqual(fieldDescriptions(recordedProof));
    },
    slow,
  );

  it(
    '4: identities are read back, flowId null is no flow, a proof of residency is not expired',
    async () => {
      const created = await post('/v2/identities', { flowId: null, metadata: { user: 'u-7' } });
      expect(created.status).toBe(200);
      const identity = createdIdentitySchema.parse(await json(created));
      expect(identity.flowId).toBe('global-passport');
      const read = await fetch(`${svc.url}/v2/identities/${identity._id}`, { headers: svc.auth });
      expect(read.status).toBe(200);
      const body = await json(read);
      expect(createdIdentitySchema.parse(body)).toMatchObject({ _id: identity._id, status: 'pending' });
      // The recorded identity's keys we know (merchantId, user and alive are the hosted account's).
      const known = ['_id', 'dateCreated', 'dateUpdated', 'flowId', 'metadata', 'status'] as const;
      const recorded = Object.fromEntries(known.map((k) => [k, recordedIdentity[k]]));
      expect(shapeDifferences(recorded, body)).toEqual([]);
      const unknown = await fetch(`${svc.url}/v2/identities/${'0'.repeat(24)}`, { headers: svc.auth });
      expect(unknown.status).toBe(404);

      const data = await readProofVerification();
      // The recording's computed data, without its national-id (this verification has a passport).
      const recordedExpiry = recordedIne.computed!.isDocumentExpired!.data;
      const recordedComputed = {
        age: recordedIne.computed!.age,
        isDocumentExpired: { data: { 'proof-of-residency': recordedExpiry['proof-of-residency'] } },
      };
      expect(shapeDifferences(recordedComputed, data.computed)).toEqual([]);
      expect(data.computed?.isDocumentExpired?.data).toEqual({
        passport: false,
        'proof-of-residency': false,
      });
      expect(data).not.toHaveProperty('customFields');
    },
    slow,
  );

  it('6: errors read as messages to an integrator', async () => {
    const created = await post('/v2/verifications', {});
    const v = (await json(created)) as { id: string; identity: string };
    const early = await fetch(`${svc.url}/v2/verifications/${v.id}/status`, {
      method: 'PUT',
      headers: { ...svc.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'verified' }),
    });
    expect(early.status).toBe(409);
    const error = serviceErrorSchema.parse(await early.json());
    expect(error.message).toBe(
      'This verification is still in progress. Send the decision once its status is verified, reviewNeeded or rejected.',
    );

    // A sample's scenario marker gives the code's message, not the marker's name.
    const blurry = withJpegComment(await passportImage('MEX'), `${SCENARIO_MARKER}documentPhoto.blurryText`);
    const sent = await sendInput(
      svc,
      v.identity,
      [
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'passport', country: 'MX', page: 'front', filename: 'p.jpg' },
        },
      ],
      [{ field: 'document', name: 'p.jpg', bytes: blurry }],
    );
    const [result] = sent.body as { error?: { code: string; message: string } }[];
    expect(result.error).toMatchObject({
      code: 'documentPhoto.blurryText',
      message: 'The document photo is too blurry.',
    });
  });
});
