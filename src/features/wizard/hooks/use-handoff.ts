import { useCallback, useEffect, useState } from 'react';
import type { Handoff, HandoffRequest, HandoffState } from '@/shared/contract/bff-api';
import { createHandoff, getHandoff } from '../api/wizard-api';

export type HandoffPhase =
  | { phase: 'idle' }
  | { phase: 'creating' }
  | { phase: 'failed' }
  | {
      phase: 'shown';
      verificationId: string;
      handoff: Handoff;
      qr: string | null;
      state: HandoffState | null;
    };

/**
 * A link (and its QR code) that continues a verification on a phone, and, once shown, the phone's
 * progress: polled until the phone has sent everything. `show` gets the verification when asked
 * (`prepare`: it is created only then, with the person's consent) and what the phone carries on
 * with (the consent, the countries chosen here).
 */
export function useHandoff(onFinished: () => void, intervalMs = 2000) {
  const [handoff, setHandoff] = useState<HandoffPhase>({ phase: 'idle' });

  const show = useCallback(
    async (prepare: () => Promise<{ verificationId: string; carry: HandoffRequest }>) => {
      setHandoff({ phase: 'creating' });
      try {
        const { verificationId, carry } = await prepare();
        const created = await createHandoff(verificationId, carry);
        // qrcode loads only when a QR code is asked for: most visits never need it.
        const qrcode = await import('qrcode');
        const qr = await qrcode
          .toDataURL(created.url, { margin: 2, width: 220, errorCorrectionLevel: 'M' })
          .catch(() => null);
        setHandoff({ phase: 'shown', verificationId, handoff: created, qr, state: null });
      } catch {
        setHandoff({ phase: 'failed' });
      }
    },
    [],
  );

  const verificationId = handoff.phase === 'shown' ? handoff.verificationId : null;
  useEffect(() => {
    if (!verificationId) return;
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
  }, [verificationId, onFinished, intervalMs]);

  return { handoff, show, hide: () => setHandoff({ phase: 'idle' }) };
}
