import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import type { CreatedVerification } from '@/shared/contract/bff-api';
import type { Flow } from '@/shared/flow';
import { createVerification, getFlow } from '../api/wizard-api';
import { buildSteps, type WizardStep } from '../lib/steps';
import * as storage from '../lib/storage';
import { wizardReducer, type WizardEvent } from '../lib/wizard-machine';
import { freshWizardState, type StoredFile, type WizardState } from '../lib/wizard-model';

/**
 * `welcome`: the flow's welcome and consent screen, with nothing created yet; `ready`: a
 * verification exists (the person agreed, here or on the computer that handed over).
 */
export type WizardLoad =
  | { phase: 'loading' }
  | { phase: 'error'; error: ApiError }
  | { phase: 'welcome'; flow: Flow; steps: WizardStep[] }
  | { phase: 'ready'; flow: Flow; steps: WizardStep[]; state: WizardState };

// StrictMode runs effects twice in development: one start per flow and page load.
const starting = new Map<string, Promise<{ flow: Flow; state: WizardState | null }>>();

/** The flow, and the saved state of a verification under way; nothing is created before consent. */
async function start(flowId: string, fresh: boolean): Promise<{ flow: Flow; state: WizardState | null }> {
  const [flow, saved] = await Promise.all([
    getFlow(flowId),
    fresh ? undefined : storage.loadState<WizardState>(flowId).catch(() => undefined),
  ]);
  if (saved?.version === 1 && saved.flowId === flowId && saved.verification) return { flow, state: saved };
  return { flow, state: null };
}

const asApiError = (error: unknown) =>
  error instanceof ApiError
    ? error
    : new ApiError(0, { code: 'unknown', type: 'SystemError', message: String(error) });

/** The state written to IndexedDB: everything but the bank statement's password. */
function persistable(state: WizardState): WizardState {
  const captures = Object.fromEntries(
    Object.entries(state.captures).map(([key, capture]) =>
      capture.kind === 'bank' ? [key, { ...capture, password: undefined }] : [key, capture],
    ),
  );
  return { ...state, captures };
}

export function useWizard(flowId: string) {
  const [load, setLoad] = useState<WizardLoad>({ phase: 'loading' });
  const blobs = useRef(new Map<string, Blob>());

  const begin = useCallback(
    (fresh: boolean) => {
      let promise = starting.get(flowId);
      if (!promise || fresh) {
        promise = start(flowId, fresh);
        starting.set(flowId, promise);
        promise.catch(() => starting.delete(flowId));
      }
      promise.then(
        ({ flow, state }) => {
          const steps = buildSteps(flow);
          if (!state) return setLoad({ phase: 'welcome', flow, steps });
          // A flow edited since the state was saved may have fewer steps.
          const stepIndex = Math.max(0, Math.min(state.stepIndex, steps.length - 1));
          setLoad({ phase: 'ready', flow, steps, state: { ...state, stepIndex } });
        },
        (error: unknown) => setLoad({ phase: 'error', error: asApiError(error) }),
      );
    },
    [flowId],
  );

  useEffect(() => begin(false), [begin]);

  /** Every change of the wizard's state goes through here: the event, then the reducer (wizard-machine.ts). */
  const dispatch = useCallback(
    (event: WizardEvent) => {
      setLoad((current) => {
        if (current.phase !== 'ready') return current;
        const state = wizardReducer(current.state, current.steps, event);
        void storage.saveState(flowId, persistable(state)).catch(() => undefined);
        starting.set(flowId, Promise.resolve({ flow: current.flow, state }));
        return { ...current, state };
      });
    },
    [flowId],
  );

  const storeFile = useCallback(
    async (file: File, inputId: string, extra: Partial<StoredFile> = {}): Promise<StoredFile> => {
      if (load.phase !== 'ready') throw new Error('wizard not ready');
      const key = `${load.state.verification.verificationId}/${inputId}/${Date.now()}`;
      blobs.current.set(key, file);
      await storage.putBlob(key, file).catch(() => undefined);
      return {
        key,
        size: file.size,
        type: file.type,
        capturedAt: Date.now(),
        ...extra,
        name: extra.name || file.name || inputId,
      };
    },
    [load],
  );

  const getBlob = useCallback(async (key: string) => {
    const cached = blobs.current.get(key);
    if (cached) return cached;
    const blob = await storage.getBlob(key).catch(() => undefined);
    if (blob) blobs.current.set(key, blob);
    return blob;
  }, []);

  const creating = useRef<Promise<CreatedVerification> | null>(null);
  /**
   * The person agreed: the verification is created now (not before), and the steps start, or
   * with `stay` the welcome screen stays (the computer showing a QR code for the phone).
   */
  const consent = useCallback(
    async ({ stay = false }: { stay?: boolean } = {}): Promise<WizardState> => {
      const agreed: WizardEvent = { type: 'consented', at: new Date().toISOString(), stay };
      if (load.phase === 'ready') {
        const state = wizardReducer(load.state, load.steps, agreed);
        dispatch(agreed);
        return state;
      }
      if (load.phase !== 'welcome') throw new Error('wizard not ready');
      // One creation however many clicks.
      creating.current ??= createVerification(flowId).finally(() => (creating.current = null));
      const verification = await creating.current;
      const { flow, steps } = load;
      const state = wizardReducer(freshWizardState(flowId, verification), steps, agreed);
      await storage.saveState(flowId, persistable(state)).catch(() => undefined);
      starting.set(flowId, Promise.resolve({ flow, state }));
      setLoad({ phase: 'ready', flow, steps, state });
      return state;
    },
    [flowId, load, dispatch],
  );

  const restart = useCallback(async () => {
    if (load.phase === 'ready') {
      await storage.deleteBlobs(`${load.state.verification.verificationId}/`).catch(() => undefined);
    }
    await storage.deleteState(flowId).catch(() => undefined);
    setLoad({ phase: 'loading' });
    begin(true);
  }, [begin, flowId, load]);

  const retry = useCallback(() => {
    setLoad({ phase: 'loading' });
    begin(false);
  }, [begin]);

  return { load, dispatch, storeFile, getBlob, consent, restart, retry };
}

export type Wizard = ReturnType<typeof useWizard>;
