/**
 * Why a file was refused in the browser, before any upload. The wizard shows each as a translated
 * retake prompt; the service makes the same checks again on what it receives.
 */
const codes = [
  'client.wrongFormat',
  'client.tooBig',
  'client.tooSmall',
  'client.grayscale',
  'client.blurry',
  'client.similarSides',
  'client.pdfNotAllowed',
  'client.tooManyPages',
  'client.pdfProtected',
  'client.passwordRequired',
  'client.passwordWrong',
  'client.videoFormat',
  'client.videoTooLong',
  'client.unreadable',
  'client.noFace',
  'client.multipleFaces',
  'client.closedEyes',
  'client.sunGlasses',
  'client.maskDetected',
  'client.documentAsSelfie',
  'client.noPdf417',
  'client.fileMissing',
] as const;

export type ClientCheckCode = (typeof codes)[number];

export const clientCheckCodes: readonly ClientCheckCode[] = codes;
