import { describe, expect, it } from 'vitest';
import hostedVerification from '@/shared/contract/fixtures/verification.json';
import { verificationDataSchema } from '@/shared/contract/verification';
import { toVerificationView } from './verification-view';

const hosted = verificationDataSchema.parse(hostedVerification);

describe('toVerificationView', () => {
  it('lays out the hosted API verification data', () => {
    const view = toVerificationView(hosted)!;
    expect(view.status).toBe('reviewNeeded');
    expect(view.hasProblem).toBe(true);
    expect(view.steps.map((s) => s.id)).toEqual(['liveness', 'ip-validation']);
    const [doc] = view.documents;
    expect(doc.country).toBe('MX');
    expect(doc.fields.find((f) => f.key === 'expirationDate')).toEqual({
      key: 'expirationDate',
      label: 'Date of expiration',
      value: '2031-12-31',
      format: 'date',
    });
    expect(doc.steps.find((s) => s.id === 'facematch')?.error?.code).toBe('facematch.notMatched');
    expect(view.age).toBe(34);
    expect(view.documentExpiry).toEqual([
      { type: 'national-id', expired: false },
      { type: 'proof-of-residency', expired: null },
    ]);
    expect(view.bank).toBeNull();
  });

  it('tells an absent section from an unknown value', () => {
    expect(toVerificationView({ ...hosted, computed: undefined })!.age).toBeUndefined();
    expect(toVerificationView({ ...hosted, computed: { age: { data: null } } })!.age).toBeNull();
    expect(toVerificationView(null)).toBeNull();
  });
});
