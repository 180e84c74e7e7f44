import { useCallback, useEffect, useState } from 'react';
import type { Handoff, HandoffState } from '@/shared/contract/bff-api';
import { createHandoff, getHandoff } from '../api/wizard-api';

export type HandoffPhase =
  | { phase: 'idle' }
  | { phase: 'creating' }
  | { phase: 'failed' }
  | { phase: 'shown'; handoff: Handoff; qr: string | null; state: HandoffState | null };

/**
 * A link (and its QR code) that continues this verification on a phone, and, once shown, the
 * phone's progress: polled until the phone has sent everything.
 */
export function useHandoff(verificationId: string, onFinished: () => void, intervalMs = 2000) {
  const [handoff, setHandoff] = useState<HandoffPhase>({ phase: 'idle' });

  const show = useCallback(async () => {
    setHandoff({ phase: 'creating' });
    try {
      const created = await createHandoff(verificationId);
      // qrcode loads only when a QR code is asked for: most visits never need it.
      const qrcode = await import('qrcode');
      const qr = await qrcode
        .toDataURL(created.url, { margin: 2, width: 220, errorCorrectionLevel: 'M' })
        .catch(() => null);
      setHandoff({ phase: 'shown', handoff: created, qr, state: null });
    } catch {
      setHandoff({ phase: 'failed' });
    }
  }, [verificationId]);

  const following = handoff.phase === 'shown';
  useEffect(() => {
    if (!following) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = async () => {
      try {
        const state = await getHandoff(verificationId);
        if (stopped) return;
        setHandoff((current) => (current.phase === 'shown' ? { ...current, state } : current));
        if (state.finished) {
          onFinished();
          return;
        }
      } catch {
        // A missed poll is tried again at the next tick.
      }
      if (!stopped) timer = setTimeout(() => void poll(), intervalMs);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [following, verificationId, onFinished, intervalMs]);

  return { handoff, show, hide: () => setHandoff({ phase: 'idle' }) };
}
