import { describe, expect, it } from 'vitest';
import { flowSchema } from '@/shared/flow';
import { buildSteps } from './steps';

const flow = flowSchema.parse({
  id: 'mixed',
  name: 'Mixed',
  merits: [
    {
      type: 'document-verification',
      documents: [
        { types: ['national-id'], countries: ['AR'] },
        { types: ['passport'], countries: ['AR', 'BR'] },
      ],
    },
    { type: 'biometric-verification', input: 'selfie-photo' },
    { type: 'custom-document', documents: [{ type: 'custom-proof-of-income', multiPage: true }] },
    { type: 'custom-fields', country: 'MX', fields: [{ name: 'curp', type: 'text' }] },
    { type: 'bank-account-data', countries: ['BR'], institutions: [{ institutionId: 'b1', name: 'Bank' }] },
  ],
});

describe('buildSteps', () => {
  it('makes one step per document, in the fixed merit order, with groups from the flow position', () => {
    const steps = buildSteps(flow);
    expect(steps.map((s) => s.kind)).toEqual([
      'document',
      'document',
      'biometric',
      'custom-document',
      'custom-fields',
      'bank',
    ]);
    const groups = steps.map((s) => ('group' in s ? s.group : null));
    expect(groups).toEqual([0, 1, null, 2, null, null]);
  });

  it('sorts merits given out of order', () => {
    const steps = buildSteps({ merits: [...flow.merits].reverse() });
    expect(steps.map((s) => s.kind)[0]).toBe('document');
    expect(steps.at(-1)?.kind).toBe('bank');
    expect(steps.find((s) => s.kind === 'custom-document')).toMatchObject({ group: 2 });
  });
});
