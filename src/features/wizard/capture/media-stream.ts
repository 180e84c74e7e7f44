export type UnavailableReason = 'denied' | 'missing' | 'error';

/** What the person can do about a failed getUserMedia: allow it, use another device, or upload. */
export function unavailableReason(error: unknown): UnavailableReason {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError')
    return 'denied';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError')
    return 'missing';
  return 'error';
}

/**
 * Opens the first set of constraints the device accepts; a later set is tried only when an earlier
 * one asks for a device that is not there (a missing microphone), never after a refusal.
 */
export async function openStream(alternatives: readonly MediaStreamConstraints[]): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia)
    throw Object.assign(new Error('no camera API'), { name: 'NotFoundError' });
  let lastError: unknown;
  for (const constraints of alternatives) {
    try {
      return await navigator.mediaDevices.getUserMedia(constraints);
    } catch (error) {
      lastError = error;
      if (unavailableReason(error) !== 'missing') throw error;
    }
  }
  throw lastError;
}

export const stopStream = (stream: MediaStream | null) =>
  stream?.getTracks().forEach((track) => track.stop());
