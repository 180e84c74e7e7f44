import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacedForm, sendInputForm } from '../../../../e2e/fixtures/send-input-form';
import { slowRequest } from '../../../../e2e/fixtures/slow-client';
import { streamedMultipart } from '../../../../e2e/fixtures/streamed-multipart';
import { serviceErrorSchema } from '@/shared/contract/service-api';
import {
  createVerification,
  faceImage,
  noiseImage,
  passportImage,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../../testing/harness';

let svc: RunningService;
let jpeg: Buffer;
beforeAll(async () => {
  svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  jpeg = await passportImage('ARG');
});
afterAll(() => svc.close());

const front = (filename = 'front.jpg', group = 0) => ({
  inputType: 'document-photo',
  group,
  data: { type: 'passport', country: 'AR', page: 'front', filename },
});
const selfie = (filename = 'selfie.jpg') => ({
  inputType: 'selfie-photo',
  data: { type: 'selfie-photo', filename },
});

const tmpFiles = () => fs.readdirSync(path.join(svc.dataDir, 'tmp'));
const mediaFiles = () => fs.readdirSync(path.join(svc.dataDir, 'media'));

describe('send-input: request-level refusals keep nothing', () => {
  it('400 for a body that is not multipart', async () => {
    const v = await createVerification(svc, 'global-passport');
    for (const [contentType, body] of [
      ['application/json', '{"inputs":[]}'],
      ['text/plain', 'hello'],
      ['application/octet-stream', 'xx'],
    ]) {
      const response = await fetch(`${svc.url}/v2/identities/${v.identity}/send-input`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': contentType },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 400, type: 'IntegrationError' });
    }
  });

  it('400 IntegrationError for missing, non-JSON or invalid inputs, flow order and groups', async () => {
    const v = await createVerification(svc, 'global-passport');
    const file = [{ field: 'document', name: 'front.jpg', bytes: jpeg }];
    const cases: unknown[] = [
      'not json',
      '[]',
      [
        {
          inputType: 'document-photo',
          data: { type: 'passport', country: 'AR', page: 'front', filename: 'front.jpg' },
        },
      ],
      [{ ...front(), data: { ...front().data, filename: '../front.jpg' } }],
      [{ ...front(), data: { ...front().data, country: 'ar' } }],
      [selfie(), front()], // biometric before documents
      [front('front.jpg', 1)], // group 1 is the proof of residency
      [front('front.jpg', 2)], // no group 2
      [{ ...front(), data: { ...front().data, type: 'national-id' } }], // type not in the step
      [{ ...front(), data: { ...front().data, country: 'DE' } }], // country not in the step
      [{ ...front(), data: { ...front().data, page: 'back' } }], // a passport has one side
      [front(), front()], // the same input twice
      [{ inputType: 'selfie-video', data: { filename: 'v.mp4' } }], // the flow's biometric is a photo
      [
        {
          inputType: 'custom-fields',
          data: {
            country: 'MX',
            fields: [{ name: 'x', type: 'atomic', atomicFieldParams: { type: 'text', value: 'y' } }],
          },
        },
      ],
    ];
    for (const inputs of cases) {
      const { status, body } = await sendInput(svc, v.identity, inputs, file);
      expect(status, JSON.stringify(inputs)).toBe(400);
      expect(body).toMatchObject({ code: 400, type: 'IntegrationError' });
    }
    const noInputs = new FormData();
    noInputs.append('document', new Blob([new Uint8Array(jpeg)]), 'front.jpg');
    const response = await fetch(`${svc.url}/v2/identities/${v.identity}/send-input`, {
      method: 'POST',
      headers: svc.auth,
      body: noInputs,
    });
    expect(response.status).toBe(400);
    expect(tmpFiles()).toEqual([]);
    const after = await fetch(`${svc.url}/v2/verifications/${v.id}`, { headers: svc.auth });
    expect(
      ((await after.json()) as { inputs: { id: string; status: number }[] }).inputs
        .filter((i) => i.id !== 'connection-data')
        .every((i) => i.status === 0),
    ).toBe(true);
  });

  it('404 for an unknown identity', async () => {
    const { status, body } = await sendInput(
      svc,
      'no-such-identity',
      [front()],
      [{ field: 'document', name: 'front.jpg', bytes: jpeg }],
    );
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 404 });
  });

  it('early refusals of a 2 MB upload reach a plain fetch client (404, 401), the connection kept', async () => {
    const big = await noiseImage(2000, 1500);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const form = () => sendInputForm([front()], [{ field: 'document', name: 'front.jpg', bytes: big }]);
    const send = async (identity: string, headers: Record<string, string>) => {
      const init = await pacedForm(form());
      return fetch(`${svc.url}/v2/identities/${identity}/send-input`, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string>) },
      });
    };
    const unknown = await send('no-such-identity', svc.auth);
    expect(unknown.status).toBe(404);
    expect(serviceErrorSchema.parse(await unknown.json())).toMatchObject({ code: 404 });
    for (const headers of [{ authorization: 'Bearer not-a-token' }, {}] as Record<string, string>[]) {
      const refused = await send('no-such-identity', headers);
      expect(refused.status).toBe(401);
      expect(serviceErrorSchema.parse(await refused.json())).toMatchObject({ code: 401 });
      expect(refused.headers.get('connection')).not.toBe('close');
    }
  });

  it('past the bound of what it reads after a refusal, the connection is cut instead', async () => {
    // Without a valid token one file's worth would be read: a body declared bigger is not.
    const slow = slowRequest(svc.url, '/v2/identities/no-such-identity/send-input', {
      authorization: 'Bearer not-a-token',
      'content-type': 'multipart/form-data; boundary=b',
      'content-length': String(60 * 1024 * 1024),
    });
    await slow.closed;
    expect(slow.status()).toBe(0);
  });

  it('415 for bytes that are not an allowed format, whatever the file name says', async () => {
    const v = await createVerification(svc, 'global-passport');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    for (const bytes of [pdf, Buffer.from('just some text, renamed to .jpg'), Buffer.alloc(0)]) {
      const { status, body } = await sendInput(
        svc,
        v.identity,
        [front()],
        [{ field: 'document', name: 'front.jpg', bytes }],
      );
      expect(status).toBe(415);
      expect(body).toMatchObject({ code: 415, type: 'ValidationError' });
    }
    expect(tmpFiles()).toEqual([]);
  });

  it('413 for a 60 MB file, refused while streaming, without keeping anything', async () => {
    const v = await createVerification(svc, 'global-passport');
    const mediaBefore = mediaFiles().length;
    const head = jpeg.subarray(0, 2048);
    const { body, contentType } = streamedMultipart(
      [front('big.jpg')],
      'document',
      'big.jpg',
      60 * 1024 * 1024,
      head,
    );
    const response = await fetch(`${svc.url}/v2/identities/${v.identity}/send-input`, {
      method: 'POST',
      headers: { ...svc.auth, 'content-type': contentType },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 413, type: 'ValidationError' });
    expect(tmpFiles()).toEqual([]);
    expect(mediaFiles().length).toBe(mediaBefore);
  });

  it('413 for more files than a request may carry', async () => {
    const v = await createVerification(svc, 'global-passport');
    const files = Array.from({ length: 17 }, (_, i) => ({
      field: 'document',
      name: `f${i}.jpg`,
      bytes: jpeg.subarray(0, 64),
    }));
    const { status, body } = await sendInput(svc, v.identity, [front('f0.jpg')], files);
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 413, type: 'ValidationError' });
    expect(tmpFiles()).toEqual([]);
  });

  it('is lenient where clients differ: a group on a selfie, a selfie without data.type', async () => {
    const v = await createVerification(svc, 'global-passport');
    const { status, body } = await sendInput(
      svc,
      v.identity,
      [{ inputType: 'selfie-photo', group: 7, data: { filename: 'selfie.jpg' } }],
      [{ field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) }],
    );
    expect(status).toBe(201);
    expect(body).toEqual([{ result: true, data: { filename: 'selfie.jpg' } }]);
  });

  it('409 input.locked once the inputs are complete and processing started', async () => {
    const v = await createVerification(svc, 'global-passport');
    const ok = await sendInput(
      svc,
      v.identity,
      [
        front(),
        {
          inputType: 'document-photo',
          group: 1,
          data: { type: 'proof-of-residency', country: 'AR', page: 'front', filename: 'por.jpg' },
        },
        selfie(),
      ],
      [
        { field: 'document', name: 'front.jpg', bytes: jpeg },
        { field: 'document', name: 'por.jpg', bytes: await noiseImage(800, 640) },
        { field: 'selfie', name: 'selfie.jpg', bytes: await faceImage(700, 700) },
      ],
    );
    expect(ok.status).toBe(201);
    const answers = ok.body as { result: boolean; error?: unknown }[];
    // The codes in the message: a refusal here names its cause in the test report.
    expect(
      answers.map((r) => r.result),
      JSON.stringify(answers.map((r) => r.error)),
    ).toEqual([true, true, true]);
    await waitForStatus(svc, v.id, ['running', 'verified', 'reviewNeeded', 'rejected']);
    const again = await sendInput(
      svc,
      v.identity,
      [selfie()],
      [{ field: 'selfie', name: 'selfie.jpg', bytes: jpeg }],
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'input.locked' });
  });
});
