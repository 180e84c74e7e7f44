import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passportPhoto } from '../../e2e/fixtures/face-photo';
import { pacedForm, sendInputForm } from '../../e2e/fixtures/send-input-form';
import {
  bffErrorSchema,
  createdVerificationSchema,
  staffVerificationDetailSchema,
  verificationStatusSchema,
  type CreatedVerification,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { sendInputResponseSchema } from '@/shared/contract/send-input';
import {
  Browser,
  eventually,
  makeImage,
  passportForm,
  secrets,
  startStack,
  toBlob,
  type Stack,
} from './testing/harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function createVerification(
  browser: Browser,
  flowId = 'global-passport',
): Promise<CreatedVerification> {
  const res = await browser.post(bffPaths.verifications, { flowId });
  expect(res.status).toBe(201);
  return createdVerificationSchema.parse(await res.json());
}

describe('capture API through the BFF', () => {
  it('serves the flows of the service', async () => {
    const browser = new Browser(stack.bffUrl);
    const list = (await (await browser.fetch(bffPaths.flows)).json()) as { id: string; name: string }[];
    expect(list.map((f) => f.id)).toContain('global-passport');
    const flow = (await (await browser.fetch(bffPaths.flow('global-passport'))).json()) as {
      merits: { type: string }[];
    };
    expect(flow.merits.map((m) => m.type)).toEqual(['document-verification', 'biometric-verification']);
    const missing = await browser.fetch(bffPaths.flow('no-such-flow'));
    expect(missing.status).toBe(404);
    expect(bffErrorSchema.parse(await missing.json()).type).toBeDefined();
  });

  it('binds a new verification to an HttpOnly, SameSite=Lax, signed session cookie', async () => {
    const browser = new Browser(stack.bffUrl);
    const res = await browser.post(bffPaths.verifications, { flowId: 'global-passport' });
    expect(res.status).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('idv_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    // Signed: the value carries a signature after the id.
    expect(cookie.split(';')[0]).toMatch(/^idv_session=[0-9a-f-]{36}\.[A-Za-z0-9+/_-]+/);
    const body = createdVerificationSchema.parse(await res.json());
    expect(body.flow).toEqual({ id: 'global-passport', name: 'Passport and proof of residency' });
    // Nothing of the service's address or credentials reaches the browser.
    expect(JSON.stringify(body)).not.toContain(stack.service.url);
    const invalid = await browser.post(bffPaths.verifications, { flowId: '' });
    expect(invalid.status).toBe(400);
    expect(bffErrorSchema.parse(await invalid.json()).type).toBe('ValidationError');
  });

  it('streams a full send-input with real images and passes the per-input answer through', async () => {
    const browser = new Browser(stack.bffUrl);
    // Metadata that looks like media links: it stays text for the console (never fetched).
    const planted = { avatar: '/api/staff/media/0123456789abcdef0123456789abcdef' };
    const createdRes = await browser.post(bffPaths.verifications, {
      flowId: 'global-passport',
      metadata: planted,
    });
    const created = createdVerificationSchema.parse(await createdRes.json());
    const res = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: await passportForm(),
    });
    expect(res.status).toBe(201);
    const results = sendInputResponseSchema.parse(await res.json());
    // The codes in the message: a refusal here names its cause in the test report.
    expect(
      results.map((r) => r.result),
      JSON.stringify(results.map((r) => (r.result ? null : r.error))),
    ).toEqual([true, true, true]);
    expect(results[2].data).toEqual({ type: 'selfie-photo', filename: 'selfie.jpg' });

    // The service verifies and calls the BFF's webhook; the status follows.
    const status = await eventually(
      async () => {
        const s = verificationStatusSchema.parse(
          await (await browser.fetch(bffPaths.status(created.verificationId))).json(),
        );
        return s.status === 'pending' || s.status === 'running' ? undefined : s;
      },
      30_000,
      'a finished verification',
    );
    expect(['verified', 'reviewNeeded', 'rejected']).toContain(status.status);
    expect(status.completedSteps.length).toBeGreaterThan(0);

    // The staff console sees it, with its webhook events and media behind the BFF.
    const staff = new Browser(stack.bffUrl);
    expect((await staff.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
    const detail = await eventually(
      async () => {
        const d = staffVerificationDetailSchema.parse(
          await (await staff.fetch(bffPaths.staffVerification(created.verificationId))).json(),
        );
        return d.events.some((e) => e.eventName === 'verification_completed') ? d : undefined;
      },
      30_000,
      'the completed event',
    );
    expect(detail.summary).toMatchObject({ status: status.status, identity: created.identity });
    expect(detail.events.every((e) => e.signatureValid)).toBe(true);
    const photo = detail.data!.documents[0].photos[0];
    expect(photo).toMatch(/^\/api\/staff\/media\/[A-Za-z0-9._~-]+$/);
    // Only what the BFF made of the service's media links is listed as media.
    expect(detail.media).toContain(photo);
    expect(detail.data!.metadata).toEqual(planted);
    expect(detail.media).not.toContain(planted.avatar);
    expect(JSON.stringify(detail)).not.toContain(stack.service.url);
    const media = await staff.fetch(photo);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toMatch(/^image\/jpeg/);
    const bytes = Buffer.from(await media.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // The capture session's cookie does not open staff media.
    expect((await browser.fetch(photo)).status).toBe(401);
  });

  it("keeps each input's answer: staff see why a refused input waits (hosted API shapes)", async () => {
    const browser = new Browser(stack.bffUrl);
    const created = await createVerification(browser);
    const passport = (bytes: Buffer) =>
      sendInputForm(
        [
          {
            inputType: 'document-photo',
            group: 0,
            data: { type: 'passport', country: 'AR', page: 'front', filename: 'passport.jpg' },
          },
        ],
        [{ field: 'document', name: 'passport.jpg', bytes }],
      );
    const send = async (bytes: Buffer) => {
      const res = await browser.fetch(bffPaths.sendInput(created.identity), {
        method: 'POST',
        body: await passport(bytes),
      });
      expect(res.status).toBe(201);
      return sendInputResponseSchema.parse(await res.json())[0];
    };
    const refused = await send(await makeImage(3, 200, 140));
    expect(refused).toMatchObject({ result: false, error: { code: 'documentPhoto.smallImageSize' } });

    const staff = new Browser(stack.bffUrl);
    expect((await staff.post(bffPaths.staffLogin, { password: secrets.STAFF_PASSWORD })).status).toBe(200);
    const inputsNow = async () =>
      staffVerificationDetailSchema.parse(
        await (await staff.fetch(bffPaths.staffVerification(created.verificationId))).json(),
      ).inputs;
    // The service runs with SERVICE_EXTENSIONS=off: its input list has no code; the BFF's record does.
    expect((await inputsNow())[0]).toEqual({
      input: 'document-photo',
      group: 0,
      state: 'refused',
      code: 'documentPhoto.smallImageSize',
    });
    // A retake that passes replaces the refusal.
    expect((await send(await passportPhoto('ARG'))).result).toBe(true);
    expect((await inputsNow())[0]).toMatchObject({ input: 'document-photo', group: 0, state: 'received' });
  });

  it("refuses another session's identity and verification (IDOR)", async () => {
    const owner = new Browser(stack.bffUrl);
    const other = new Browser(stack.bffUrl);
    const created = await createVerification(owner);
    await createVerification(other);
    const anonymous = new Browser(stack.bffUrl);
    for (const browser of [other, anonymous]) {
      const send = await browser.fetch(bffPaths.sendInput(created.identity), {
        method: 'POST',
        body: await passportForm(),
      });
      expect(send.status).toBe(403);
      expect(bffErrorSchema.parse(await send.json())).toMatchObject({
        code: 'session.forbidden',
        type: 'AuthError',
      });
      expect((await browser.fetch(bffPaths.status(created.verificationId))).status).toBe(403);
      expect(
        (await browser.fetch(bffPaths.skipUploadWait(created.verificationId), { method: 'PUT' })).status,
      ).toBe(403);
    }
    // A forged cookie (wrong signature) is no session either.
    const forged = new Browser(stack.bffUrl);
    forged.cookies.set('idv_session', `${[...owner.cookies.values()][0].split('.')[0]}.forged`);
    expect((await forged.fetch(bffPaths.status(created.verificationId))).status).toBe(403);
    // The owner still can.
    expect((await owner.fetch(bffPaths.status(created.verificationId))).status).toBe(200);
    expect(
      (await owner.fetch(bffPaths.skipUploadWait(created.verificationId), { method: 'PUT' })).status,
    ).toBe(204);
  });

  it('refuses what the service would refuse anyway, before streaming it', async () => {
    const browser = new Browser(stack.bffUrl);
    const created = await createVerification(browser);
    const json = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: [] }),
    });
    expect(json.status).toBe(415);
    expect(bffErrorSchema.parse(await json.json()).code).toBe('request.notMultipart');

    const form = new FormData();
    form.append('inputs', JSON.stringify([{ inputType: 'selfie-photo', data: { filename: 'x.jpg' } }]));
    form.append('selfie', toBlob('%PDF-1.4 this is no photo'), 'x.jpg');
    const wrong = await browser.fetch(bffPaths.sendInput(created.identity), { method: 'POST', body: form });
    expect(wrong.status).toBe(415);
    expect(bffErrorSchema.parse(await wrong.json())).toMatchObject({
      code: 'unsupported_format',
      type: 'ValidationError',
    });

    // The service's own request-level errors keep their status, as one envelope.
    const badInputs = new FormData();
    badInputs.append('inputs', 'not json');
    const integration = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: badInputs,
    });
    expect(integration.status).toBe(400);
    expect(bffErrorSchema.parse(await integration.json()).type).toBe('IntegrationError');

    // Refused by the service part-way through a streamed body: still its own 4xx, not "send it again".
    const longInputs = new FormData();
    longInputs.append('inputs', JSON.stringify([{ pad: 'x'.repeat(2 * 1024 * 1024) }]));
    const photo = Buffer.concat([await makeImage(5), Buffer.alloc(6 * 1024 * 1024, 0x5a)]);
    longInputs.append('document', toBlob(photo, 'image/jpeg'), 'front.jpg');
    const tooLong = await browser.fetch(bffPaths.sendInput(created.identity), await pacedForm(longInputs));
    expect(tooLong.status).toBe(400);
    expect(bffErrorSchema.parse(await tooLong.json())).toMatchObject({ type: 'IntegrationError' });
    const manyFields = new FormData();
    for (let i = 0; i < 200; i++) manyFields.append(`note${i}`, 'y'.repeat(4 * 1024));
    manyFields.append('document', toBlob(photo, 'image/jpeg'), 'front.jpg');
    const tooMany = await browser.fetch(bffPaths.sendInput(created.identity), await pacedForm(manyFields));
    expect(tooMany.status).toBe(413);
    expect(bffErrorSchema.parse(await tooMany.json())).toMatchObject({ code: 'too_many_parts' });
  });

  it('refuses a 60 MB upload with 413 and keeps working', async () => {
    const browser = new Browser(stack.bffUrl);
    const created = await createVerification(browser);
    const big = Buffer.alloc(60 * 1024 * 1024, 0x5a);
    (await makeImage(4)).copy(big);
    const form = new FormData();
    form.append(
      'inputs',
      JSON.stringify([
        {
          inputType: 'document-photo',
          group: 0,
          data: { type: 'passport', country: 'AR', page: 'front', filename: 'big.jpg' },
        },
      ]),
    );
    form.append('document', toBlob(big, 'image/jpeg'), 'big.jpg');
    const res = await browser.fetch(bffPaths.sendInput(created.identity), { method: 'POST', body: form });
    expect(res.status).toBe(413);
    expect(bffErrorSchema.parse(await res.json())).toMatchObject({
      code: 'file_too_large',
      type: 'ValidationError',
    });

    const again = await browser.fetch(bffPaths.sendInput(created.identity), {
      method: 'POST',
      body: await passportForm(),
    });
    expect(again.status).toBe(201);
    const accepted = sendInputResponseSchema.parse(await again.json());
    // All three accepted (the lock below needs the inputs complete); a refusal names itself.
    expect(
      accepted.map((a) => a.result),
      JSON.stringify(accepted),
    ).toEqual([true, true, true]);

    // The inputs are complete: a 2 MB photo sent now is refused by the service before it reads it,
    // and the person gets that refusal (409 input.locked), not "send it again".
    const late = new FormData();
    late.append(
      'inputs',
      JSON.stringify([{ inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 's.jpg' } }]),
    );
    late.append('selfie', toBlob(await makeImage(7, 2000, 1500), 'image/jpeg'), 's.jpg');
    const locked = await browser.fetch(bffPaths.sendInput(created.identity), await pacedForm(late));
    expect(bffErrorSchema.parse(await locked.json())).toMatchObject({ code: 'input.locked' });
    expect(locked.status).toBe(409);
  });

  it('serves health with the service reachability', async () => {
    const res = await new Browser(stack.bffUrl).fetch(bffPaths.health);
    expect(await res.json()).toEqual({ ok: true, upstream: 'ok', store: 'ok' });
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain("'unsafe-eval'");
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
