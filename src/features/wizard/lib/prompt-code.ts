/**
 * The prompt shown for a refusal. The service refuses a liveness video whose challenge was not
 * performed as a selfie "not taken properly" (`selfiePhoto.validationError`: the spec has no video
 * code for it), so on a video the prompt says what to do differently: follow the movements.
 */
export function promptCode(code: string, inputType: string): string {
  return inputType === 'selfie-video' && code === 'selfiePhoto.validationError' ? 'livenessChallenge' : code;
}
