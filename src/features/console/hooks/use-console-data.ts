import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  consoleKeys,
  createCreditCheck,
  decideVerification,
  deleteVerification,
  fetchCreditChecks,
  fetchFlow,
  fetchFlowSummaries,
  fetchVerification,
  fetchVerifications,
} from '../api/staff-api';
import { hasPending, upsertById } from '../lib/collections';
import type { CreditCheckRecord, VerificationSummary } from '@/shared/contract/bff-api';
import type { StaffDecision } from '@/shared/contract/bff-api';

/** Slow polling behind the event stream, in case a proxy drops it without an error. */
const listFallbackMs = 15_000;
/** Pending credit checks are polled faster: a result is what the staff member is waiting for. */
const pendingPollMs = 2_000;

export function useFlowSummaries() {
  return useQuery({ queryKey: consoleKeys.flows, queryFn: fetchFlowSummaries, staleTime: 60_000 });
}

export function useFlows(ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: consoleKeys.flow(id),
      queryFn: () => fetchFlow(id),
      staleTime: 60_000,
    })),
  });
}

export function useVerifications() {
  return useQuery({
    queryKey: consoleKeys.verifications,
    queryFn: fetchVerifications,
    refetchInterval: listFallbackMs,
  });
}

export function useVerification(id: string) {
  return useQuery({ queryKey: consoleKeys.verification(id), queryFn: () => fetchVerification(id) });
}

export function useCreditChecks() {
  return useQuery({
    queryKey: consoleKeys.creditChecks,
    queryFn: fetchCreditChecks,
    refetchInterval: (query) => (hasPending(query.state.data) ? pendingPollMs : listFallbackMs),
  });
}

export function useCreateCreditCheck(country: 'ar' | 'br') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, string>) => createCreditCheck(country, body),
    onSuccess: (record) =>
      queryClient.setQueryData<CreditCheckRecord[]>(consoleKeys.creditChecks, (list) =>
        upsertById(list, record),
      ),
  });
}

/** A reviewer's decision; the page shows the answer at once, the list follows. */
export function useDecideVerification(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: StaffDecision) => decideVerification(id, decision),
    onSuccess: (detail) => {
      queryClient.setQueryData(consoleKeys.verification(id), detail);
      queryClient.setQueryData<VerificationSummary[]>(
        consoleKeys.verifications,
        (list) => list && upsertById(list, detail.summary),
      );
    },
  });
}

/** Erasure; the verification leaves the list and its page. */
export function useDeleteVerification(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteVerification(id),
    onSuccess: () => {
      queryClient.setQueryData<VerificationSummary[]>(
        consoleKeys.verifications,
        (list) => list && list.filter((v) => v.id !== id),
      );
      queryClient.removeQueries({ queryKey: consoleKeys.verification(id) });
    },
  });
}
