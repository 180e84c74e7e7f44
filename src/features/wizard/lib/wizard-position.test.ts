import { describe, expect, it } from 'vitest';
import { flowSchema } from '@/shared/flow';
import arFlow from '../../../service/verification/flows/ar-national-id.json';
import { buildSteps } from './steps';
import type { WizardState } from './wizard-model';
import { parsePosition, positionOf, positionSearch, previousPosition, reach } from './wizard-position';

const steps = buildSteps(flowSchema.parse(arFlow));
const file = (key: string) => ({ key, name: `${key}.jpg`, size: 1, type: 'image/jpeg' });
const base: WizardState = {
  version: 1,
  flowId: 'ar-national-id',
  verification: { verificationId: 'v', identity: 'i', flow: { id: 'ar-national-id', name: 'AR' } },
  screen: 'welcome',
  stepIndex: 0,
  captures: {},
  results: {},
};
const consented: WizardState = { ...base, consentedAt: '2026-01-01T00:00:00Z' };
const withDocument: WizardState = {
  ...consented,
  captures: {
    [steps[0].key]: {
      kind: 'document',
      type: 'national-id',
      country: 'AR',
      front: file('f'),
      back: file('b'),
    },
  },
};

describe('wizard positions', () => {
  it('go to and from the address bar', () => {
    for (const search of [
      '?step=welcome',
      '?step=review',
      '?step=2',
      '?step=1-back',
      '?step=1-front&retake=doc-0-front',
    ])
      expect(positionSearch(parsePosition(search)!)).toBe(search);
    expect(parsePosition('')).toBeNull();
    expect(parsePosition('?step=../../x')).toBeNull();
  });

  it('allow no capture before consent and no step past the first incomplete one', () => {
    expect(reach(base, steps, { screen: 'steps', stepIndex: 1 }).screen).toBe('welcome');
    expect(positionOf(reach(consented, steps, { screen: 'steps', stepIndex: 1 }))).toEqual({
      screen: 'steps',
      stepIndex: 0,
    });
    expect(reach(consented, steps, { screen: 'review' }).screen).toBe('steps');
    expect(positionOf(reach(withDocument, steps, { screen: 'steps', stepIndex: 1 }))).toEqual({
      screen: 'steps',
      stepIndex: 1,
    });
    const done: WizardState = { ...withDocument, screen: 'done' };
    expect(reach(done, steps, { screen: 'welcome' })).toBe(done);
  });

  it('Back goes to the previous screen, sides included', () => {
    const at = (state: Partial<WizardState>) => previousPosition({ ...withDocument, ...state }, steps);
    expect(at({ screen: 'review' })).toEqual({ screen: 'steps', stepIndex: 1 });
    expect(at({ screen: 'steps', stepIndex: 1 })).toEqual({ screen: 'steps', stepIndex: 0, part: 'back' });
    expect(at({ screen: 'steps', stepIndex: 0, part: 'back' })).toEqual({
      screen: 'steps',
      stepIndex: 0,
      part: 'front',
    });
    expect(at({ screen: 'steps', stepIndex: 0, part: 'front' })).toEqual({
      screen: 'steps',
      stepIndex: 0,
      part: 'choose',
    });
    expect(at({ screen: 'steps', stepIndex: 0, part: 'choose' })).toEqual({ screen: 'welcome' });
    expect(at({ screen: 'failures' })).toEqual({ screen: 'review' });
    expect(at({ screen: 'steps', retake: { inputId: 'selfie', code: 'selfie.noFace' as never } })).toEqual({
      screen: 'failures',
    });
    expect(at({ screen: 'welcome' })).toBeNull();
  });
});
