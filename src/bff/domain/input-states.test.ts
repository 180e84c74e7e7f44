import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@/shared/contract/bff-api';
import type { VerificationData } from '@/shared/contract/verification';
import { inputStatesOf } from './input-states';

const base = (status: VerificationData['identity']['status'], extra: Partial<VerificationData>) =>
  ({
    id: 'v1',
    flow: { id: 'f', name: 'F' },
    identity: { status },
    steps: [],
    documents: [],
    ...extra,
  }) as VerificationData;

const event = (eventName: string): StoredEvent => ({
  id: eventName,
  kind: 'verification',
  eventName,
  receivedAt: '2026-01-01T00:00:00Z',
  signatureValid: true,
  body: {},
});

const doc = (type: string, country: string, photos: number, steps: VerificationData['steps'] = []) => ({
  type,
  country,
  photos: Array.from({ length: photos }, (_, i) => `/m/${i}`),
  steps,
});

describe('inputStatesOf', () => {
  it('pending: not sent, refused with its code, waiting for the back side, received', () => {
    const data = base('pending', {
      documents: [doc('national-id', 'AR', 1), doc('custom-proof-of-address', '', 1)],
      ...({
        inputs: [
          { id: 'connection-data', status: 200 },
          { id: 'document-photo', group: 0, status: 200 },
          { id: 'selfie-photo', status: 100, errorCode: 'selfiePhoto.sunGlasses' },
          { id: 'custom-document-photo', group: 1, status: 200 },
          { id: 'custom-fields', status: 0 },
        ],
      } as object),
    });
    expect(inputStatesOf(data, [])).toEqual([
      { input: 'document-photo', group: 0, documentType: 'national-id', state: 'waitingForBack' },
      { input: 'selfie-photo', state: 'refused', code: 'selfiePhoto.sunGlasses' },
      {
        input: 'custom-document-photo',
        group: 1,
        documentType: 'custom-proof-of-address',
        state: 'received',
      },
      { input: 'custom-fields', state: 'notSent' },
    ]);
  });

  it('a one-or-two-sided document waits for its back only once processing was postponed', () => {
    const data = base('pending', {
      documents: [doc('national-id', 'BR', 1)],
      ...({ inputs: [{ id: 'document-photo', group: 0, status: 200 }] } as object),
    });
    expect(inputStatesOf(data, [])[0].state).toBe('received');
    expect(inputStatesOf(data, [event('verification_postponed')])[0].state).toBe('waitingForBack');
  });

  it('running: processing; finished: checked or failed with the code of the failed check', () => {
    const inputs = [
      { id: 'document-photo', group: 0, status: 200 },
      { id: 'selfie-video', status: 200 },
    ];
    const running = base('running', { ...({ inputs } as object), documents: [doc('passport', 'AR', 1)] });
    expect(inputStatesOf(running, []).map((i) => i.state)).toEqual(['processing', 'processing']);
    const failedStep = {
      id: 'facematch',
      status: 200 as const,
      error: { type: 'StepError', code: 'facematch.mismatch', message: 'm' },
    };
    const done = base('reviewNeeded', {
      ...({ inputs } as object),
      documents: [doc('passport', 'AR', 1, [failedStep])],
      steps: [{ id: 'liveness', status: 200, error: null }],
    });
    expect(inputStatesOf(done, [])).toEqual([
      {
        input: 'document-photo',
        group: 0,
        documentType: 'passport',
        state: 'failed',
        code: 'facematch.mismatch',
      },
      // The face match is the selfie's check too (issue 35: it said "Every check passed").
      { input: 'selfie-video', state: 'failed', code: 'facematch.mismatch' },
    ]);
    expect(inputStatesOf(base('pending', {}), [])).toEqual([]);
  });

  // Issue 35 item 5: a verified identity document showed "Failed" for the alteration detection
  // this service does not have.
  it('a check not performed is no failure: listed apart, on a checked or failed input', () => {
    const notPerformed = (id: string) => ({
      id,
      status: 200 as const,
      error: { type: 'StepError', code: `${id}.notPerformed`, message: 'this service has none' },
    });
    const inputs = [
      { id: 'document-photo', group: 0, status: 200 },
      { id: 'selfie-photo', status: 200 },
    ];
    const verified = base('verified', {
      ...({ inputs } as object),
      documents: [
        doc('national-id', 'AR', 2, [
          { id: 'document-reading', status: 200, error: null },
          notPerformed('alteration-detection'),
          notPerformed('watchlists'),
        ]),
      ],
      steps: [{ id: 'selfie', status: 200, error: null }],
    });
    expect(inputStatesOf(verified, [])).toEqual([
      {
        input: 'document-photo',
        group: 0,
        documentType: 'national-id',
        state: 'checked',
        notPerformed: ['alteration-detection', 'watchlists'],
      },
      { input: 'selfie-photo', state: 'checked' },
    ]);
    const failing = base('reviewNeeded', {
      ...({ inputs: inputs.slice(0, 1) } as object),
      documents: [
        doc('national-id', 'AR', 2, [
          notPerformed('alteration-detection'),
          {
            id: 'document-reading',
            status: 200,
            error: { type: 'StepError', code: 'document-reading.noFields', message: 'm' },
          },
        ]),
      ],
    });
    expect(inputStatesOf(failing, [])[0]).toMatchObject({
      state: 'failed',
      code: 'document-reading.noFields',
      notPerformed: ['alteration-detection'],
    });
  });

  it("names a refusal from the BFF's send-input records first, the service's errorCode only without one", () => {
    const data = base('pending', {
      ...({
        inputs: [
          { id: 'document-photo', group: 0, status: 100 },
          { id: 'selfie-photo', status: 100, errorCode: 'selfiePhoto.sunGlasses' },
          { id: 'custom-fields', status: 0 },
        ],
      } as object),
    });
    const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`;
    const results = [
      // The back was refused after the front passed: the document waits for the back.
      { slot: 'document:0:front', accepted: true, code: null, at: at(1) },
      { slot: 'document:0:back', accepted: false, code: 'documentPhoto.similarImages', at: at(2) },
      { slot: 'biometric', accepted: false, code: 'selfiePhoto.closedEyes', at: at(3) },
      // A service that lists a refused input as missing (0): the record says it waits.
      { slot: 'custom-fields', accepted: false, code: 'customFields.invalidValue', at: at(4) },
    ];
    expect(inputStatesOf(data, [], results)).toEqual([
      { input: 'document-photo', group: 0, state: 'refused', code: 'documentPhoto.similarImages' },
      { input: 'selfie-photo', state: 'refused', code: 'selfiePhoto.closedEyes' },
      { input: 'custom-fields', state: 'refused', code: 'customFields.invalidValue' },
    ]);
    expect(inputStatesOf(data, []).map((i) => i.code)).toEqual([
      undefined,
      'selfiePhoto.sunGlasses',
      undefined,
    ]);
  });
});
