import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createdIdentitySchema,
  creationAnswerSchema,
  createVerificationSchema,
  serviceErrorSchema,
  tokenSchema,
} from './service-api';
import { verificationDataSchema } from './verification';
import { verificationEventSchema } from './webhooks';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('the hosted API shapes parse with the shared schemas', () => {
  it('token: payload.user._id', () => {
    expect(tokenSchema.parse(fixture('token.json')).payload.user._id).toBe('5f3a1c2b9d8e7f6a5b4c3d2e');
  });

  it('creation answer: inputs, device fingerprint, hasProblem, nested metadata', () => {
    const created = creationAnswerSchema.parse(fixture('creation.json'));
    expect(created.inputs.map((i) => i.id)).toEqual(['connection-data', 'selfie-video', 'document-photo']);
    expect(created.deviceFingerprint.ip).toBe('203.0.113.7');
    expect(created.hasProblem).toBe(false);
    expect(created.metadata).toEqual({ user: { id: 'u-42', plan: 'gold' } });
  });

  it('verification data: document-reading fields directly in data, liveness urls', () => {
    const data = verificationDataSchema.parse(fixture('verification.json'));
    const doc = data.documents[0];
    const reading = doc.steps.find((s) => s.id === 'document-reading')!;
    expect((reading.data as Record<string, { value: unknown }>).expirationDate.value).toBe('2031-12-31');
    expect(doc.fields?.emissionDate.value).toBe('2021-06-02');
    expect(doc.fields?.cde.sensitive).toBe(true);
    expect(data.steps[0].data?.selfieUrl).toMatch(/\/media\/f-1$/);
    expect(data.hasProblem).toBe(true);
  });

  it('errors carry status and statusCode; webhooks include verification_postponed', () => {
    const error = serviceErrorSchema.parse(fixture('error-not-found.json'));
    expect([error.name, error.status, error.statusCode]).toEqual(['EntityNotFoundError', 404, 404]);
    expect(verificationEventSchema.parse(fixture('webhook-step-completed.json')).step?.id).toBe('liveness');
    expect(verificationEventSchema.parse(fixture('webhook-postponed.json')).eventName).toBe(
      'verification_postponed',
    );
  });

  it('recorded shapes: voter card, proof of residency, liveness, selfie photo, identity', () => {
    const ine = verificationDataSchema.parse(fixture('hosted-verification-ine.json'));
    const [card, proof] = ine.documents;
    const reading = card.steps.find((s) => s.id === 'document-reading')!.data as Record<string, unknown>;
    expect(reading.cde).toEqual({ value: 'PRGRJN85010109H400', label: 'Elector Key' });
    // A proof of residency: region null, fields with a value only, the name required in the reading.
    expect(proof.region).toBeNull();
    expect(proof.fields?.fullName).toEqual({ value: 'JUAN PEREZ GARCIA' });
    expect(proof.steps[0].data?.fullName).toMatchObject({ required: true, label: 'Name' });
    expect(ine.computed?.isDocumentExpired?.data['proof-of-residency']).toBe(false);
    const selfie = verificationDataSchema.parse(fixture('hosted-verification-selfie.json'));
    expect(selfie.steps[0].data?.selfiePhotoUrl).toMatch(/^https:/);
    // The hosted identity carries account keys the embedded service has no use for.
    const identity = createdIdentitySchema.parse(fixture('hosted-identity.json'));
    expect(identity).toMatchObject({ status: 'pending', alive: null });
    // Creation: a client without a flow sends flowId null.
    expect(createVerificationSchema.parse({ flowId: null, metadata: {} }).flowId).toBeNull();
  });

  it('refuses a renamed field', () => {
    const data = fixture('verification.json') as { identity: { status: string } };
    expect(verificationDataSchema.safeParse({ ...data, identity: { state: 'verified' } }).success).toBe(
      false,
    );
  });
});
