import { describe, expect, it } from 'vitest';
import type { VerificationSummary } from '@/shared/contract/bff-api';
import {
  filterFromSearch,
  filterVerifications,
  hasPending,
  searchFromFilter,
  upsertById,
} from './collections';

const summary = (
  id: string,
  createdAt: string,
  over: Partial<VerificationSummary> = {},
): VerificationSummary => ({
  id,
  identity: null,
  flowId: 'ar-national-id',
  flowName: 'Argentina',
  status: 'pending',
  createdAt,
  updatedAt: createdAt,
  lastEvent: null,
  ...over,
});

describe('collections', () => {
  it('upserts by id, newest first', () => {
    const list = [summary('a', '2026-01-01T00:00:00Z'), summary('b', '2026-01-02T00:00:00Z')];
    const updated = upsertById(list, summary('a', '2026-01-01T00:00:00Z', { status: 'verified' }));
    expect(updated.map((v) => v.id)).toEqual(['b', 'a']);
    expect(updated[1].status).toBe('verified');
    expect(upsertById(updated, summary('c', '2026-01-03T00:00:00Z'))[0].id).toBe('c');
    expect(upsertById(undefined, summary('d', '2026-01-03T00:00:00Z'))).toHaveLength(1);
  });

  it('filters by status and flow', () => {
    const list = [
      summary('a', '1', { status: 'verified' }),
      summary('b', '2', { flowId: 'br-bank' }),
      summary('c', '3', { status: 'verified', flowId: 'br-bank' }),
    ];
    expect(filterVerifications(list, { status: '', flowId: '' })).toHaveLength(3);
    expect(filterVerifications(list, { status: 'verified', flowId: '' }).map((v) => v.id)).toEqual([
      'a',
      'c',
    ]);
    expect(filterVerifications(list, { status: 'verified', flowId: 'br-bank' }).map((v) => v.id)).toEqual([
      'c',
    ]);
  });

  it('keeps the filter in the address', () => {
    expect(searchFromFilter({ status: '', flowId: '' })).toBe('');
    const search = searchFromFilter({ status: 'reviewNeeded', flowId: 'mx-ine-full' });
    expect(filterFromSearch(search)).toEqual({ status: 'reviewNeeded', flowId: 'mx-ine-full' });
    expect(filterFromSearch('')).toEqual({ status: '', flowId: '' });
  });

  it('tells whether a credit check is still pending', () => {
    const base = {
      country: 'br' as const,
      request: {},
      result: null,
      error: null,
      createdAt: '',
      completedAt: null,
    };
    expect(hasPending(undefined)).toBe(false);
    expect(hasPending([{ ...base, id: '1', status: 'completed' }])).toBe(false);
    expect(
      hasPending([
        { ...base, id: '1', status: 'completed' },
        { ...base, id: '2', status: 'pending' },
      ]),
    ).toBe(true);
  });
});
