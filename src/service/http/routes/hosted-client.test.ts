import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON_MARKER } from '@/shared/error-codes';
import { creationAnswerSchema, tokenSchema } from '@/shared/contract/service-api';
import { verificationDataSchema } from '@/shared/contract/verification';
import { verificationEventSchema } from '@/shared/contract/webhooks';
import {
  basicAuth,
  createVerification,
  faceImage,
  getVerification,
  noiseImage,
  passportImage,
  sendInput,
  startService,
  startServiceWithReceiver,
  waitFor,
  waitForStatus,
  withJpegComment,
  type RunningService,
} from '../../testing/harness';

// A client that sends only what the hosted API documents: no flowId (the default flow),
// metadata as a JSON string, a selfie descriptor without data.type.
describe('a client of the hosted API, against the embedded service', () => {
  let withHooks: Awaited<ReturnType<typeof startServiceWithReceiver>>;
  let svc: RunningService;
  let hooks: typeof withHooks.hooks;
  beforeAll(async () => {
    withHooks = await startServiceWithReceiver('hosted-client-secret', {
      DEFAULT_FLOW_ID: 'global-passport',
    });
    ({ svc, hooks } = withHooks);
  });
  afterAll(() => withHooks.close());

  it('authenticates, creates, completes a flow, decides, re-verifies and erases', async () => {
    const token = await fetch(`${svc.url}/oauth`, {
      method: 'POST',
      headers: {
        authorization: basicAuth(svc.config.clientId, svc.config.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const { payload, access_token } = tokenSchema.parse(await token.json());
    expect(payload.user._id).toMatch(/^[0-9a-f]{24}$/);
    const auth = { authorization: `Bearer ${access_token}` };

    const created = await fetch(`${svc.url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'user-agent': 'hosted-client/1.0' },
      body: JSON.stringify({ metadata: JSON.stringify({ user: { id: 'u-7', tier: 2 } }) }),
    });
    expect(created.status).toBe(200);
    const v = creationAnswerSchema.parse(await created.json());
    expect(v.flow.id).toBe('global-passport');
    expect(v.metadata).toEqual({ user: { id: 'u-7', tier: 2 } });
    expect(v.deviceFingerprint.ua).toBe('hosted-client/1.0');

    const person = { fullName: 'Lucía Gómez', dateOfBirth: '1988-02-03', expiryDate: '2030-07-08' };
    const marker = `${PERSON_MARKER}${Buffer.from(JSON.stringify(person)).toString('base64url')}`;
    const sent = await sendInput(
      svc,
      v.identity,
      [
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'passport', country: 'ES', page: 'front', filename: 'p.jpg' },
        },
        {
          inputType: 'document-photo',
          group: 1,
          data: { type: 'proof-of-residency', country: 'ES', page: 'front', filename: 'r.jpg' },
        },
        { inputType: 'selfie-photo', data: { filename: 's.jpg' } },
      ],
      [
        { field: 'document', name: 'p.jpg', bytes: withJpegComment(await passportImage('ESP'), marker) },
        { field: 'document', name: 'r.jpg', bytes: await noiseImage(800, 640) },
        { field: 'selfie', name: 's.jpg', bytes: await faceImage(700, 700) },
      ],
    );
    expect(sent.status).toBe(201);
    const data = verificationDataSchema.parse(
      await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected']),
    );
    const reading = data.documents[0].steps.find((s) => s.id === 'document-reading')!;
    expect((reading.data as Record<string, { value: string }>).expirationDate.value).toBe('2030-07-08');
    expect(data.documents[0].fields?.expirationDate.value).toBe('2030-07-08');
    expect(typeof data.hasProblem).toBe('boolean');
    const selfieUrl = data.steps.find((s) => s.id === 'selfie')?.data?.selfiePhotoUrl;
    expect(typeof selfieUrl).toBe('string');
    expect((await fetch(selfieUrl as string, { headers: auth })).status).toBe(200);

    // A reviewer's decision fires verification_updated.
    const decided = await fetch(`${svc.url}/v2/verifications/${v.id}/status`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'rejected' }),
    });
    expect(decided.status).toBe(200);
    expect(verificationDataSchema.parse(await decided.json()).identity.status).toBe('rejected');
    await waitFor(async () =>
      hooks.received.some((h) => verificationEventSchema.parse(h.json).eventName === 'verification_updated'),
    );

    // Re-verification of the same identity: a new verification, same identity.
    const again = await fetch(`${svc.url}/v2/verifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flowId: 'global-passport', identityId: v.identity }),
    });
    const second = creationAnswerSchema.parse(await again.json());
    expect(second.identity).toBe(v.identity);
    expect(second.id).not.toBe(v.id);

    // Erasure: data and media gone, at the API and on disk.
    const mediaIds = [...data.documents.flatMap((d) => d.photos), selfieUrl as string].map((u) =>
      u.split('/').pop(),
    );
    const erased = await fetch(`${svc.url}/v2/verifications/${v.id}`, { method: 'DELETE', headers: auth });
    expect(erased.status).toBe(204);
    const gone = await fetch(`${svc.url}/v2/verifications/${v.id}`, { headers: auth });
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { name: string }).name).toBe('EntityNotFoundError');
    expect((await fetch(selfieUrl as string, { headers: auth })).status).toBe(404);
    for (const id of mediaIds) expect(fs.existsSync(path.join(svc.dataDir, 'media', id!))).toBe(false);
    // The re-verification of the identity is untouched.
    expect((await fetch(`${svc.url}/v2/verifications/${second.id}`, { headers: auth })).status).toBe(200);
  });

  it('takes the skip as PUT or POST, with or without a trailing slash', async () => {
    for (const [method, tail] of [
      ['PUT', ''],
      ['POST', '/'],
    ]) {
      const created = await fetch(`${svc.url}/v2/verifications`, {
        method: 'POST',
        headers: { ...svc.auth, 'content-type': 'application/json' },
        body: '{}',
      });
      const { id } = creationAnswerSchema.parse(await created.json());
      const skip = await fetch(`${svc.url}/v2/verifications/${id}/inputs/document-photo/skip${tail}`, {
        method,
        headers: svc.auth,
      });
      expect(skip.status, `${method} ${tail}`).toBe(204);
    }
  });
});

describe('the service with its extensions switched off', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SERVICE_EXTENSIONS: 'off' });
  });
  afterAll(() => svc.close());

  it('serves only the documented routes, and an OpenAPI document of them', async () => {
    expect((await fetch(`${svc.url}/v2/flows`, { headers: svc.auth })).status).toBe(404);
    expect((await fetch(`${svc.url}/v2/flows/ar-national-id`, { headers: svc.auth })).status).toBe(404);
    const doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).not.toContain('/v2/flows');
    expect(doc.paths['/v2/verifications/{id}/status']).toHaveProperty('put');
    expect(doc.paths['/v2/verifications/{id}']).toHaveProperty('delete');
  });

  it('lists a refused input as the hosted API does: status 100, no errorCode', async () => {
    const v = await createVerification(svc, 'global-passport');
    const sent = await sendInput(
      svc,
      v.identity,
      [
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'passport', country: 'AR', page: 'front', filename: 'p.jpg' },
        },
      ],
      [{ field: 'document', name: 'p.jpg', bytes: await noiseImage(400, 300) }],
    );
    expect(sent.status).toBe(201);
    const data = (await getVerification(svc, v.id)) as unknown as {
      inputs: { id: string; status: number; errorCode?: string }[];
    };
    const passport = data.inputs.find((i) => i.id === 'document-photo')!;
    expect(passport.status).toBe(100);
    expect(passport).not.toHaveProperty('errorCode');
  });
});
