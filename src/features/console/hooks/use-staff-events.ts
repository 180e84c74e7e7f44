import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  staffStreamEventSchema,
  type CreditCheckRecord,
  type VerificationSummary,
} from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import { consoleKeys } from '../api/staff-api';
import { upsertById } from '../lib/collections';

export type StreamState = 'connecting' | 'open' | 'closed';

/**
 * Keeps the console's lists live from the BFF's server-sent events. A verification event also
 * refreshes that verification's page; a closed stream (logged out, server gone) re-checks the session.
 */
export function useStaffEvents(): StreamState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(bffPaths.staffEvents, { withCredentials: true });
    const onMessage = (event: MessageEvent<string>) => {
      let json: unknown;
      try {
        json = JSON.parse(event.data);
      } catch {
        return;
      }
      const parsed = staffStreamEventSchema.safeParse(json);
      if (!parsed.success) return;
      if (parsed.data.kind === 'verification') {
        const summary = parsed.data.verification;
        queryClient.setQueryData<VerificationSummary[]>(
          consoleKeys.verifications,
          (list) => list && upsertById(list, summary),
        );
        void queryClient.invalidateQueries({ queryKey: consoleKeys.verification(summary.id) });
      } else if (parsed.data.kind === 'verification-deleted') {
        const { id } = parsed.data;
        queryClient.setQueryData<VerificationSummary[]>(
          consoleKeys.verifications,
          (list) => list && list.filter((v) => v.id !== id),
        );
        queryClient.removeQueries({ queryKey: consoleKeys.verification(id) });
      } else {
        const record = parsed.data.creditCheck;
        queryClient.setQueryData<CreditCheckRecord[]>(
          consoleKeys.creditChecks,
          (list) => list && upsertById(list, record),
        );
      }
    };
    source.onopen = () => {
      setState('open');
      // Whatever happened while the stream was down is fetched once.
      void queryClient.invalidateQueries({ queryKey: consoleKeys.verifications });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.creditChecks });
    };
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        setState('closed');
        void queryClient.invalidateQueries({ queryKey: consoleKeys.me });
      } else setState('connecting');
    };
    source.addEventListener('verification', onMessage);
    source.addEventListener('credit-check', onMessage);
    source.addEventListener('verification-deleted', onMessage);
    source.addEventListener('message', onMessage);
    return () => source.close();
  }, [queryClient]);

  return state;
}
