import { useEffect, useState } from 'react';
import type { VerificationStatus } from '@/shared/contract/bff-api';
import { isFinalStatus } from '@/shared/contract/verification';
import { getStatus } from '../api/wizard-api';

/** Polls the verification's status until it reaches a final one. */
export function useVerificationStatus(verificationId: string, intervalMs = 2000) {
  const [status, setStatus] = useState<VerificationStatus | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const next = await getStatus(verificationId);
        if (stopped) return;
        setStatus(next);
        setFailed(false);
        if (isFinalStatus(next.status)) return;
      } catch {
        if (stopped) return;
        setFailed(true);
      }
      timer = setTimeout(() => void poll(), intervalMs);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [verificationId, intervalMs]);
  return { status, failed, final: !!status && isFinalStatus(status.status) };
}
