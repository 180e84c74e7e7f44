import type { CreditCheckRecord, VerificationSummary } from '@/shared/contract/bff-api';

/** Sort order of the console's lists: newest (createdAt) first. */
export const newestFirst = (a: { createdAt: string }, b: { createdAt: string }) =>
  b.createdAt.localeCompare(a.createdAt);

/** Replaces the item with the same id, or adds it; newest first. */
export function upsertById<T extends { id: string; createdAt: string }>(
  list: readonly T[] | undefined,
  item: T,
): T[] {
  const rest = (list ?? []).filter((existing) => existing.id !== item.id);
  return [item, ...rest].sort(newestFirst);
}

export interface VerificationFilter {
  status: string;
  flowId: string;
}

export function filterVerifications(
  list: readonly VerificationSummary[],
  filter: VerificationFilter,
): VerificationSummary[] {
  return list.filter(
    (v) => (!filter.status || v.status === filter.status) && (!filter.flowId || v.flowId === filter.flowId),
  );
}

/** The filter kept in the address (?status=…&flow=…) so a filtered list can be shared and reloaded. */
export function filterFromSearch(search: string): VerificationFilter {
  const params = new URLSearchParams(search);
  return { status: params.get('status') ?? '', flowId: params.get('flow') ?? '' };
}

export function searchFromFilter(filter: VerificationFilter): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.flowId) params.set('flow', filter.flowId);
  const search = params.toString();
  return search ? `?${search}` : '';
}

export const hasPending = (checks: readonly CreditCheckRecord[] | undefined) =>
  (checks ?? []).some((check) => check.status === 'pending');
