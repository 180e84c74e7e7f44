import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api-client';
import type { CreatedVerification } from '@/shared/contract/bff-api';
import type { Flow } from '@/shared/flow';
import { createVerification, getFlow } from '../api/wizard-api';
import { buildSteps, type WizardStep } from '../lib/steps';
import { reach, type Position } from '../lib/wizard-position';
import * as storage from '../lib/storage';
import {
  failuresToRetake,
  freshWizardState,
  keepValidResults,
  planInputs,
  type Capture,
  type StoredFile,
  type WizardState,
} from '../lib/wizard-model';

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

/** A document step opens on its choice of document, so that history has an entry for it. */
const firstPartOf = (step: WizardStep | undefined) => (step?.kind === 'document' ? 'choose' : undefined);

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

  const update = useCallback(
    (change: (state: WizardState, steps: WizardStep[]) => WizardState) => {
      setLoad((current) => {
        if (current.phase !== 'ready') return current;
        const state = change(current.state, current.steps);
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

  const saveCapture = useCallback(
    (stepKey: string, capture: Capture) =>
      update((state, steps) => {
        const captures = { ...state.captures, [stepKey]: capture };
        const results = keepValidResults(
          planInputs(steps, state.captures),
          planInputs(steps, captures),
          state.results,
        );
        return { ...state, captures, results };
      }),
    [update],
  );

  /** After a step: the next step, or back to the failures / review screen when retaking. */
  const next = useCallback(
    () =>
      update((state, steps) => {
        if (state.retake) {
          const left = failuresToRetake(planInputs(steps, state.captures), state.results);
          return {
            ...state,
            retake: undefined,
            part: undefined,
            screen: left.length ? 'failures' : 'review',
          };
        }
        if (state.stepIndex + 1 >= steps.length)
          return { ...state, screen: 'review', stepIndex: steps.length - 1, part: undefined };
        return { ...state, stepIndex: state.stepIndex + 1, part: firstPartOf(steps[state.stepIndex + 1]) };
      }),
    [update],
  );

  /** To a position the person asked for (Back, a link, the browser's history), as far as allowed. */
  const go = useCallback(
    (position: Position) => update((state, steps) => reach(state, steps, position)),
    [update],
  );

  /** A step's sub-screen (a document's choice, front, back). */
  const goPart = useCallback((part: string) => update((state) => ({ ...state, part })), [update]);

  const creating = useRef<Promise<CreatedVerification> | null>(null);
  /**
   * The person agreed: the verification is created now (not before), and the steps start, or
   * with `stay` the welcome screen stays (the computer showing a QR code for the phone).
   */
  const consent = useCallback(
    async ({ stay = false }: { stay?: boolean } = {}): Promise<WizardState> => {
      const begin = (state: WizardState, steps: WizardStep[]): WizardState =>
        stay ? state : { ...state, screen: 'steps', stepIndex: 0, part: firstPartOf(steps[0]) };
      if (load.phase === 'ready') {
        const state = begin(
          { ...load.state, consentedAt: load.state.consentedAt ?? new Date().toISOString() },
          load.steps,
        );
        update(() => state);
        return state;
      }
      if (load.phase !== 'welcome') throw new Error('wizard not ready');
      // One creation however many clicks.
      creating.current ??= createVerification(flowId).finally(() => (creating.current = null));
      const verification = await creating.current;
      const { flow, steps } = load;
      const state = begin(
        { ...freshWizardState(flowId, verification), consentedAt: new Date().toISOString() },
        steps,
      );
      await storage.saveState(flowId, persistable(state)).catch(() => undefined);
      starting.set(flowId, Promise.resolve({ flow, state }));
      setLoad({ phase: 'ready', flow, steps, state });
      return state;
    },
    [flowId, load, update],
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

  return { load, update, storeFile, getBlob, saveCapture, next, go, goPart, consent, restart, retry };
}

export type Wizard = ReturnType<typeof useWizard>;
