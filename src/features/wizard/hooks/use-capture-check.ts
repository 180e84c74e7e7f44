import { useState } from 'react';
import type { ErrorCode } from '@/shared/error-codes';
import type { DocumentType } from '@/shared/flow';
import type { ImageMetrics } from '@/checks/image/image-metrics';
import { sniffAllowed, type AcceptKind, type ClientReason } from '../lib/client-checks';

export type CapturedInfo = {
  /** The name of the file the person chose (the checked file may be a re-encoded copy). */
  originalName: string;
  phash?: string;
  pdf?: { encrypted: boolean; pageCount: number | null };
  /** Taken with the camera on this page. */
  fromCamera?: boolean;
};

export interface CaptureRules {
  accept: AcceptKind;
  checkKind: 'document' | 'selfie' | 'custom-document';
  otherSide?: { phash: string };
  /** The photo must show a readable PDF417 barcode. */
  pdf417?: boolean;
  /** The photo must show a readable MRZ. */
  mrz?: boolean;
  /** The type and country the person chose, against what the document's MRZ or barcode states. */
  claim?: { type: DocumentType; country: string };
  /** The side the person was asked for (a document's front or back). */
  page?: 'front' | 'back';
  /** The step requires a PDF417 (read on a side that may carry it: see checkImage). */
  pdf417Step?: boolean;
  /** A refusal that names the person's choice (type or country), so the step can offer to change it. */
  onRefused?: (code: string) => void;
  /** A PDF with more pages is refused here, as the service would refuse it. */
  maxPdfPages?: number;
  /** Only a bank statement comes with its password; the service cannot open any other protected PDF. */
  protectedPdfAllowed?: boolean;
  onFile: (file: File, info: CapturedInfo) => Promise<void> | void;
}

const imageAccepts = new Set<AcceptKind>(['image', 'image-or-pdf']);

/** A wrong file's message names what this capture takes. */
function wrongFormatFor(accept: AcceptKind): ClientReason {
  if (accept === 'pdf') return 'client.wrongFormatPdf';
  if (accept === 'image-or-pdf') return 'client.wrongFormatImageOrPdf';
  return 'client.wrongFormat';
}

/** Whether a capture of this kind turns HEIC/WebP/AVIF photos into JPEG before its checks. */
export const convertsPhotos = (accept: AcceptKind) => imageAccepts.has(accept);

/**
 * The browser's checks of one captured file, however it arrived (camera, video, upload, drop):
 * conversion of other photo formats, the format sniffed from the bytes, then the check of its
 * kind (PDF, video, image), each loaded only when a capture needs it. A refusal is kept as the
 * reason the wizard shows; an accepted file goes to `onFile`.
 */
export function useCaptureCheck(rules: CaptureRules) {
  const [busy, setBusy] = useState(false);
  // A browser check's reason, or the service's code where the browser saw what the service would say.
  const [problem, setProblem] = useState<ClientReason | ErrorCode | null>(null);
  // The expiry date an expired document's MRZ states (YYYY-MM-DD), told with the refusal.
  const [expiredOn, setExpiredOn] = useState<string | null>(null);
  const {
    accept,
    checkKind,
    otherSide,
    pdf417,
    pdf417Step,
    mrz,
    claim,
    page,
    onRefused,
    maxPdfPages,
    protectedPdfAllowed,
  } = rules;

  /** Checks a file; true when it was accepted and handed to `onFile`. */
  async function take(chosen: File, fromCamera = false, measured?: ImageMetrics): Promise<boolean> {
    setBusy(true);
    setProblem(null);
    setExpiredOn(null);
    const refuse = (reason: ClientReason | ErrorCode) => {
      setProblem(reason);
      return false;
    };
    try {
      let file = chosen;
      if (convertsPhotos(accept)) {
        const { sniffConvertible, convertToJpeg } = await import('../lib/convert-image');
        const format = sniffConvertible(new Uint8Array(await chosen.slice(0, 64).arrayBuffer()));
        if (format) {
          try {
            file = await convertToJpeg(chosen, format);
          } catch {
            return refuse('client.convertFailed');
          }
        }
      }
      const sniffed = await sniffAllowed(file, accept);
      if (!sniffed.ok)
        return refuse(sniffed.reason === 'client.wrongFormat' ? wrongFormatFor(accept) : sniffed.reason);
      if (sniffed.format === 'pdf') {
        const { inspectPdf } = await import('../checks/check-pdf');
        const result = await inspectPdf(file, { maxPages: maxPdfPages });
        if (!result.ok) {
          // The same words as the service's refusal of a multi-page PDF for a one-page document.
          if (result.reason === 'client.tooManyPages')
            return refuse('CustomDocumentPhoto.multiPageInputError');
          return refuse(
            result.reason === 'client.unreadable' ? 'client.pdfUnreadable' : (result.reason as ClientReason),
          );
        }
        if (result.encrypted && !protectedPdfAllowed) return refuse('client.pdfProtected');
        await rules.onFile(file, {
          originalName: chosen.name,
          pdf: { encrypted: result.encrypted, pageCount: result.pageCount },
        });
        return true;
      }
      if (accept === 'video') {
        const { checkVideo } = await import('../checks/check-video');
        const result = await checkVideo(file);
        if (!result.ok) return refuse(result.reason as ClientReason);
        await rules.onFile(file, { originalName: chosen.name, fromCamera });
        return true;
      }
      const { checkImage } = await import('../checks/check-image');
      const result = await checkImage(file, {
        kind: checkKind,
        ...(otherSide ? { otherSide } : {}),
        ...(pdf417 ? { pdf417 } : {}),
        ...(mrz ? { mrz } : {}),
        ...(claim ? { claim } : {}),
        ...(page ? { page } : {}),
        ...(pdf417Step ? { pdf417Step } : {}),
        // A camera shot was measured from the frame it was encoded from: not decoded again.
        ...(measured ? { measured } : {}),
      });
      if (!result.ok) {
        if (result.reason === 'client.expiredDocument') setExpiredOn(result.expiryDate);
        onRefused?.(result.reason);
        return refuse(result.reason);
      }
      await rules.onFile(result.file, { originalName: chosen.name, phash: result.phash, fromCamera });
      return true;
    } catch {
      return refuse(accept === 'pdf' ? 'client.pdfUnreadable' : 'client.unreadable');
    } finally {
      setBusy(false);
    }
  }

  return { busy, problem, expiredOn, take };
}
