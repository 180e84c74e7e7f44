import { describe, expect, it } from 'vitest';
import { buildSteps } from './steps';
import { wizardReducer, type WizardEvent } from './wizard-machine';
import { freshWizardState, planInputs, type StoredFile, type WizardState } from './wizard-model';

const file = (key: string): StoredFile => ({ key, name: `${key}.jpg`, size: 1000, type: 'image/jpeg' });

const steps = buildSteps({
  merits: [
    {
      type: 'document-verification',
      documents: [{ types: ['passport'], countries: ['AR'], regions: {}, requires: [] }],
    },
    { type: 'biometric-verification', input: 'selfie-photo' },
  ],
});

const fresh = freshWizardState('global-passport', {
  verificationId: 'v1',
  identity: 'i1',
} as WizardState['verification']);

const run = (events: WizardEvent[], from: WizardState = fresh) =>
  events.reduce((state, event) => wizardReducer(state, steps, event), from);

const captured: WizardEvent[] = [
  { type: 'consented', at: '2026-11-26T10:00:00Z', stay: false },
  {
    type: 'captured',
    stepKey: steps[0].key,
    capture: { kind: 'document', type: 'passport', country: 'AR', front: file('front') },
  },
  { type: 'stepDone' },
  { type: 'captured', stepKey: steps[1].key, capture: { kind: 'biometric', file: file('selfie') } },
  { type: 'stepDone' },
];

describe('the wizard as one state machine', () => {
  it('consent starts the steps on the first document choice; with stay the welcome screen stays', () => {
    const started = run([captured[0]]);
    expect(started).toMatchObject({ screen: 'steps', stepIndex: 0, part: 'choose' });
    expect(started.consentedAt).toBe('2026-11-26T10:00:00Z');
    expect(run([{ type: 'consented', at: 'x', stay: true }]).screen).toBe('welcome');
  });

  it("a refused liveness video's answer brings the next attempt's challenge: the retake records against it", () => {
    const review = run(captured);
    const [, selfieInput] = planInputs(steps, review.captures);
    const next = {
      actions: ['blink' as const, 'turnRight' as const],
      cuesMs: [2100, 5300],
      attempt: 2,
      attempts: 3,
    };
    const refused = run(
      [
        {
          type: 'sent',
          results: {
            [selfieInput.id]: {
              state: 'failed',
              error: { type: 'ValidationError', code: 'selfiePhoto.validationError', message: 'x' },
            },
          },
          livenessChallenge: next,
        },
      ],
      review,
    );
    expect(refused.verification).toMatchObject({ verificationId: 'v1', livenessChallenge: next });
    // An answer without one keeps the challenge the wizard has.
    expect(run([{ type: 'sent', results: {} }], refused).verification.livenessChallenge).toEqual(next);
  });

  it('goes through the steps to the review, and sent answers decide the next screen', () => {
    const review = run(captured);
    expect(review).toMatchObject({ screen: 'review', stepIndex: 1 });
    const [documentInput, selfieInput] = planInputs(steps, review.captures);
    const sending = run([{ type: 'sendStarted', at: '2026-11-26T10:01:00Z' }], review);
    expect(sending.sendingSince).toBe('2026-11-26T10:01:00Z');

    const refused = run(
      [
        {
          type: 'sent',
          results: {
            [documentInput.id]: { state: 'accepted' },
            [selfieInput.id]: {
              state: 'failed',
              error: { type: 'StepError', code: 'selfiePhoto.noFace', message: 'no face' },
            },
          },
        },
      ],
      sending,
    );
    expect(refused).toMatchObject({ screen: 'failures', sendingSince: undefined });

    const retaking = run(
      [{ type: 'retaken', stepIndex: 1, retake: { inputId: selfieInput.id, code: 'selfiePhoto.noFace' } }],
      refused,
    );
    expect(retaking).toMatchObject({ screen: 'steps', stepIndex: 1 });
    // A new capture drops the old answer for that input; Continue goes back to the review.
    const retaken = run(
      [
        { type: 'captured', stepKey: steps[1].key, capture: { kind: 'biometric', file: file('selfie-2') } },
        { type: 'stepDone' },
      ],
      retaking,
    );
    expect(retaken.results[selfieInput.id]).toBeUndefined();
    expect(retaken).toMatchObject({ screen: 'review', retake: undefined });

    const done = run(
      [
        {
          type: 'sent',
          results: { ...retaken.results, [selfieInput.id]: { state: 'accepted' } },
          skippedUploadWait: false,
        },
      ],
      retaken,
    );
    expect(done.screen).toBe('done');
  });

  it('a send that stops, a status found after a reload, and a phone that finished', () => {
    const review = run([...captured, { type: 'sendStarted', at: 'now' }]);
    expect(run([{ type: 'sendStopped' }], review)).toMatchObject({
      screen: 'review',
      sendingSince: undefined,
    });
    expect(run([{ type: 'statusFound', processing: false }], review)).toMatchObject({ screen: 'review' });
    expect(run([{ type: 'statusFound', processing: true }], review)).toMatchObject({ screen: 'done' });
    expect(run([{ type: 'finished' }], review)).toMatchObject({ screen: 'done', sendingSince: undefined });
  });

  it('the browser refusing inputs before a send opens the failures screen', () => {
    const review = run(captured);
    const [, selfieInput] = planInputs(steps, review.captures);
    const next = run(
      [
        {
          type: 'refusedHere',
          results: {
            [selfieInput.id]: {
              state: 'failed',
              error: { type: 'ClientCheck', code: 'selfiePhoto.noFace', message: 'no face' },
            },
          },
        },
      ],
      review,
    );
    expect(next.screen).toBe('failures');
  });
});
