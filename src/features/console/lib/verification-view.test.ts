import { describe, expect, it } from 'vitest';
import { verificationDataSchema } from '@/shared/contract/verification';
import { toVerificationView } from './verification-view';

const sampleVerification = {
  id: 'ver-1',
  identity: { status: 'verified' },
  flow: { id: 'ar-national-id', name: 'Argentina national ID' },
  metadata: { source: 'console' },
  expired: false,
  steps: [
    {
      id: 'liveness',
      status: 200,
      data: { videoUrl: '/api/staff/media/v1', selfieUrl: '/api/staff/media/s1' },
      error: null,
    },
    { id: 'ip-validation', status: 200, data: { country: 'Argentina', city: 'Córdoba', isProxy: false } },
  ],
  documents: [
    {
      type: 'national-id',
      country: 'AR',
      region: '',
      photos: ['/api/staff/media/p1', '/api/staff/media/p2'],
      steps: [
        { id: 'document-reading', status: 200, data: {}, error: null },
        {
          id: 'watchlists',
          status: 200,
          error: { type: 'StepError', code: 'watchlists.match', message: 'A match' },
        },
      ],
      fields: {
        fullName: { value: 'Ana Pérez', label: 'Full name' },
        dateOfBirth: { value: '1990-05-01', label: 'Date of birth', format: 'date' },
        expiryDate: { value: null, label: 'Expiry' },
      },
    },
  ],
  computed: { age: { data: 35 }, isDocumentExpired: { data: { 'national-id': false, passport: null } } },
  financialInformation: {
    bankStatement: {
      accounts: [{ institution: 'Banco X', number: '123', currency: 'BRL' }],
      transactions: [{ date: '2026-01-01', amount: -20.5, description: 'purchase' }],
      current_balance: 1000,
      available_balance: null,
      identity: { name: 'Ana Pérez', email: 'ana@example.com' },
    },
  },
};

describe('toVerificationView', () => {
  it('reads every section of well-formed data', () => {
    expect(verificationDataSchema.safeParse(sampleVerification).success).toBe(true);
    const view = toVerificationView(sampleVerification)!;
    expect(view.status).toBe('verified');
    expect(view.steps.map((s) => s.id)).toEqual(['liveness', 'ip-validation']);
    expect(view.steps[1].error).toBeNull();
    const [doc] = view.documents;
    expect(doc.region).toBeNull();
    expect(doc.photos).toHaveLength(2);
    expect(doc.steps[1].error?.code).toBe('watchlists.match');
    expect(doc.fields?.find((f) => f.key === 'dateOfBirth')).toEqual({
      key: 'dateOfBirth',
      label: 'Date of birth',
      value: '1990-05-01',
      format: 'date',
    });
    expect(doc.fields?.find((f) => f.key === 'expiryDate')?.value).toBeNull();
    expect(view.age).toBe(35);
    expect(view.documentExpiry).toEqual([
      { type: 'national-id', expired: false },
      { type: 'passport', expired: null },
    ]);
    expect(view.bank?.accounts).toHaveLength(1);
    expect(view.bank?.currentBalance).toBe(1000);
    expect(view.bank?.availableBalance).toBeNull();
    expect(view.bank?.holder).toEqual({ name: 'Ana Pérez', email: 'ana@example.com' });
  });

  it('tells an absent age from an unknown one', () => {
    expect(toVerificationView({ computed: {} })?.age).toBeUndefined();
    expect(toVerificationView({ computed: { age: { data: null } } })?.age).toBeNull();
  });

  it('survives missing and malformed sections', () => {
    expect(toVerificationView(null)).toBeNull();
    expect(toVerificationView('text')).toBeNull();
    const view = toVerificationView({
      id: 7,
      steps: 'nope',
      documents: [null, { type: 'passport', photos: [1, '/api/staff/media/x'], fields: 'bad', steps: [{}] }],
      computed: { isDocumentExpired: { data: 'bad' } },
      financialInformation: { bankStatement: { accounts: 'bad' } },
    })!;
    expect(view.id).toBeNull();
    expect(view.status).toBeNull();
    expect(view.steps).toEqual([]);
    expect(view.documents).toHaveLength(1);
    expect(view.documents[0].photos).toEqual(['/api/staff/media/x']);
    expect(view.documents[0].fields).toBeNull();
    expect(view.documents[0].steps[0]).toEqual({ id: '', status: null, data: null, error: null });
    expect(view.documentExpiry).toBeNull();
    expect(view.bank).toEqual({
      accounts: [],
      transactions: [],
      currentBalance: null,
      availableBalance: null,
      holder: null,
    });
  });
});
