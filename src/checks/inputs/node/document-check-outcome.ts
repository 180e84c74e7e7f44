import type { AlterationDetectionData, TemplateMatchingData } from '@/shared/contract/verification';
import type { AlterationDetectionErrorCode, TemplateMatchingErrorCode } from '@/shared/error-codes';

/** The document checks that tell a genuine document, with the data and failure codes of each. */
interface DocumentChecks {
  'template-matching': { data: TemplateMatchingData; code: TemplateMatchingErrorCode };
  'alteration-detection': { data: AlterationDetectionData; code: AlterationDetectionErrorCode };
}
export type DocumentCheckId = keyof DocumentChecks;

/**
 * What a document check found, for `documentCheckStep` (src/service/verification/
 * document-check-step.ts) to report: performed, passed or failed with one of its codes and its
 * data; or not performed for this document (no template of its type, no model), with the reason
 * for staff. Not performed is never a pass (wire contract §6).
 */
export type DocumentCheckOutcome<I extends DocumentCheckId> =
  | { performed: true; passed: true; data: DocumentChecks[I]['data'] }
  | {
      performed: true;
      passed: false;
      code: DocumentChecks[I]['code'];
      /** For staff; the code's default message when left out. */
      message?: string;
      data: DocumentChecks[I]['data'];
    }
  | { performed: false; reason: string };

/** The outcomes of one document's checks; a check left out was not performed. */
export type DocumentCheckOutcomes = { [I in DocumentCheckId]?: DocumentCheckOutcome<I> };
