import { describe, expect, it } from 'vitest';
import {
  alterationDetectionDataSchema,
  stepSchema,
  templateMatchingDataSchema,
} from '@/shared/contract/verification';
import { documentCheckStep, shownStep } from './document-check-step';

const revision = {
  id: 'MX-INE-G',
  name: 'INE, model G',
  type: 'national-id',
  country: 'MX',
  valid: true,
};

describe('documentCheckStep (issue 39, item 4)', () => {
  it('reports a performed check that passed: status 200, no error, its data', () => {
    const step = documentCheckStep('template-matching', {
      performed: true,
      passed: true,
      data: { revision, score: 0.93 },
    });
    expect(step).toEqual({
      id: 'template-matching',
      status: 200,
      data: { revision, score: 0.93 },
      error: null,
    });
    expect(templateMatchingDataSchema.parse(step.data)).toEqual({ revision, score: 0.93 });
    expect(shownStep(step, false)).toBe(true);
  });

  it('reports a performed check that failed with its code, the code’s message unless told, its data', () => {
    const findings = [{ region: 'portrait', kind: 'compression' as const, detail: 'recompressed apart' }];
    const step = documentCheckStep('alteration-detection', {
      performed: true,
      passed: false,
      code: 'alterationDetection.digitalAlteration',
      data: { checked: ['portrait', 'file'], findings },
    });
    expect(step.error).toEqual({
      type: 'StepError',
      code: 'alterationDetection.digitalAlteration',
      message: 'The document shows signs of digital alteration.',
    });
    expect(alterationDetectionDataSchema.parse(step.data)).toEqual({
      checked: ['portrait', 'file'],
      findings,
    });
    const told = documentCheckStep('template-matching', {
      performed: true,
      passed: false,
      code: 'templateMatching.revisionNotValid',
      message: 'model C, valid until 2019-12-31',
      data: { revision: { ...revision, valid: false, validUntil: '2019-12-31' } },
    });
    expect(told.error?.message).toBe('model C, valid until 2019-12-31');
    expect(shownStep(told, false)).toBe(true);
  });

  it('never passes a check not performed: an error with the reason, shown with the extensions only', () => {
    const step = documentCheckStep('template-matching', { performed: false, reason: 'no template' });
    expect(step).toMatchObject({
      status: 200,
      data: { performed: false },
      error: { type: 'StepError', code: 'template-matching.notPerformed', message: 'no template' },
    });
    expect(shownStep(step, true)).toBe(true);
    expect(shownStep(step, false)).toBe(false);
    // Whatever is shown is a step of the contract.
    expect(stepSchema.safeParse(step).success).toBe(true);
  });
});
