import { useEffect, useRef, useState } from 'react';
import { getStatus, skipUploadWait } from '../api/wizard-api';
import { buildSendInputForm, classifyFailure, sendInputs, type RequestFailure } from '../lib/send-input';
import type { WizardStep } from '../lib/steps';
import { deleteBlobs } from '../lib/storage';
import type { WizardEvent } from '../lib/wizard-machine';
import {
  pendingInputs,
  planInputs,
  type InputError,
  type InputOutcome,
  type WizardState,
} from '../lib/wizard-model';

/**
 * The send procedure of the review screen: the browser's last checks, one multipart send-input
 * with its progress (cancellable), the answers per input, the skipped upload wait, and after a
 * reload mid-upload the status asked before anything else. It reports to the wizard by events.
 */
export function useSendInputs({
  steps,
  state,
  getBlob,
  dispatch,
}: {
  steps: WizardStep[];
  state: WizardState;
  getBlob: (key: string) => Promise<Blob | undefined>;
  dispatch: (event: WizardEvent) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<RequestFailure | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [checking, setChecking] = useState(false);
  const upload = useRef<AbortController | null>(null);
  // A reload (or a closed tab) during an upload: whether it arrived is asked before any new send,
  // so that the person is never offered a send the service would refuse.
  const [askingStatus, setAskingStatus] = useState(!!state.sendingSince);
  const interrupted = !!state.sendingSince;
  const verificationId = state.verification.verificationId;

  useEffect(() => {
    if (!interrupted || upload.current) return;
    let stopped = false;
    getStatus(verificationId).then(
      (status) => {
        if (stopped) return;
        setAskingStatus(false);
        // Processing started: everything arrived and nothing more can be sent.
        dispatch({ type: 'statusFound', processing: status.status !== 'pending' });
      },
      () => !stopped && setAskingStatus(false),
    );
    return () => {
      stopped = true;
    };
  }, [interrupted, verificationId, dispatch]);

  const planned = planInputs(steps, state.captures);
  const toSend = pendingInputs(planned, state.results);

  async function send() {
    setFailure(null);
    setCancelled(false);
    setChecking(true);
    // Everything the browser can already refuse is told now, together, and stays here.
    const { checkHeldInputs } = await import('../checks/check-held-inputs');
    const refused = await checkHeldInputs(toSend, planned, steps, getBlob).catch(
      (): Record<string, InputError> => ({}),
    );
    setChecking(false);
    const refusedResults = Object.fromEntries(
      Object.entries(refused).map(([id, error]): [string, InputOutcome] => [id, { state: 'failed', error }]),
    );
    const sendNow = toSend.filter((input) => !refused[input.id]);
    if (!sendNow.length) {
      dispatch({ type: 'refusedHere', results: refusedResults });
      return;
    }
    setProgress(0);
    const controller = new AbortController();
    upload.current = controller;
    dispatch({ type: 'sendStarted', at: new Date().toISOString() });
    const parts = await Promise.all(
      sendNow.map(async (input) => ({
        input,
        blob: input.file ? await getBlob(input.file.stored.key) : undefined,
      })),
    );
    const outcome = await sendInputs(
      state.verification.identity,
      buildSendInputForm(parts),
      setProgress,
      controller.signal,
    );
    upload.current = null;
    if (!outcome.ok) {
      setProgress(null);
      dispatch({ type: 'sendStopped' });
      if (controller.signal.aborted) {
        setCancelled(true);
        return;
      }
      // Everything arrived already (an earlier upload finished after all): the "locked" screen
      // offers the status only, never another send.
      setFailure(classifyFailure(outcome.status, outcome.error));
      return;
    }
    // The service's answers and the browser's refusals, on one failures screen.
    const results: Record<string, InputOutcome> = { ...state.results, ...refusedResults };
    sendNow.forEach((input, i) => {
      const result = outcome.results[i];
      if (!result) return;
      results[input.id] =
        result.result === true ? { state: 'accepted' } : { state: 'failed', error: result.error };
    });
    const allAccepted = planned.every((input) => results[input.id]?.state === 'accepted');
    let skippedUploadWait = state.skippedUploadWait;
    if (allAccepted) {
      // A front sent without its back would wait for it; the person said there is none.
      const waiting = steps.some((step) => {
        const capture = state.captures[step.key];
        return step.kind === 'document' && capture?.kind === 'document' && capture.noBack;
      });
      if (waiting && !skippedUploadWait) {
        skippedUploadWait = await skipUploadWait(state.verification.verificationId).then(
          () => true,
          () => false,
        );
      }
      void deleteBlobs(`${state.verification.verificationId}/`).catch(() => undefined);
    }
    setProgress(null);
    // (ext) A judged liveness video used its attempt up: a retake records against the next challenge.
    const livenessChallenge = outcome.results.findLast((r) => r.livenessChallenge)?.livenessChallenge;
    dispatch({
      type: 'sent',
      results,
      skippedUploadWait,
      ...(livenessChallenge ? { livenessChallenge } : {}),
    });
  }

  return {
    send,
    cancel: () => upload.current?.abort(),
    toSend,
    progress,
    sending: progress !== null,
    failure,
    cancelled,
    checking,
    askingStatus,
  };
}
