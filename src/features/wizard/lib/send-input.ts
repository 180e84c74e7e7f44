import type { BffError } from '@/shared/contract/bff-api';
import { bffPaths } from '@/shared/contract/bff-paths';
import type { InputResult } from '@/shared/contract/send-input';
import type { PlannedInput } from './wizard-model';

export type SendOutcome =
  { ok: true; results: InputResult[] } | { ok: false; status: number; error: BffError };

/** The multipart body of one send-input call: `inputs` first, then each file under its field. */
export function buildSendInputForm(inputs: { input: PlannedInput; blob?: Blob }[]): FormData {
  const form = new FormData();
  form.append('inputs', JSON.stringify(inputs.map(({ input }) => input.descriptor)));
  for (const { input, blob } of inputs) {
    if (input.file && blob) form.append(input.file.field, blob, input.file.uploadName);
  }
  return form;
}

const fallbackError = (status: number): BffError => ({
  code: status === 0 ? 'network.unreachable' : String(status),
  type: 'SystemError',
  message: status === 0 ? 'The server could not be reached.' : `HTTP ${status}`,
});

/**
 * One send-input call through the BFF. XMLHttpRequest rather than fetch: fetch still reports no
 * upload progress, and a 50 MB video on a phone needs a progress bar.
 */
export function sendInputs(
  identity: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', bffPaths.sendInput(identity));
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body)) {
        onProgress(1);
        resolve({ ok: true, results: body as InputResult[] });
      } else {
        const error = body && typeof body === 'object' && 'code' in body ? (body as BffError) : null;
        resolve({
          ok: false,
          status: xhr.status,
          error: error
            ? { ...fallbackError(xhr.status), ...error, code: String(error.code) }
            : fallbackError(xhr.status),
        });
      }
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, error: fallbackError(0) });
    xhr.ontimeout = xhr.onerror;
    // A cancelled upload ends like a failed one; the caller knows it asked for it.
    xhr.onabort = xhr.onerror;
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** The kind of request-level failure, each with its own screen. */
export type RequestFailure =
  | 'integration'
  | 'tooBig'
  | 'format'
  | 'session'
  | 'locked'
  | 'storageFull'
  | 'unavailable'
  | 'network'
  | 'unknown';

export function classifyFailure(status: number, error: BffError): RequestFailure {
  if (status === 0) return 'network';
  if (status === 413) return 'tooBig';
  if (status === 415) return 'format';
  if (status === 401 || status === 403 || status === 404) return 'session';
  if (status === 409 || error.code === 'input.locked') return 'locked';
  if (status === 400 || error.type === 'IntegrationError') return 'integration';
  // The service's disk is full: nothing was kept, and only time (not a retake) helps.
  if (error.code === 'upstream.storageFull') return 'storageFull';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  return 'unknown';
}
