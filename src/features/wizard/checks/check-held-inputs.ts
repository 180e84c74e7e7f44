import { hammingDistance, SAME_PICTURE_MAX_DISTANCE } from '@/checks/image/image-metrics';
import { sniffAllowed, type AcceptKind } from '../lib/client-checks';
import type { WizardStep } from '../lib/steps';
import type { InputError, PlannedInput } from '../lib/wizard-model';

/** What this input's file may be, as its capture field took it. */
function acceptOf(input: PlannedInput): AcceptKind {
  switch (input.file?.field) {
    case 'video':
      return 'video';
    case 'custom-document':
      return input.part === 'multi' ? 'pdf' : 'image-or-pdf';
    case 'bank-document':
      return 'image-or-pdf';
    default:
      return 'image';
  }
}

const refusal = (code: InputError['code']): InputError => ({ type: 'ClientCheck', code, message: '' });

/**
 * The browser's checks over everything held in the browser until the one send: each capture was
 * checked alone when it was taken, but a side retaken later is only now next to its other side,
 * a resumed capture may have lost its bytes, and a flow may take one page where a PDF has more.
 * Returns the refusal of every input that the service would surely refuse too, so that the person
 * hears of all of them at once and none of them is sent.
 */
export async function checkHeldInputs(
  toSend: PlannedInput[],
  planned: PlannedInput[],
  steps: WizardStep[],
  getBlob: (key: string) => Promise<Blob | undefined>,
): Promise<Record<string, InputError>> {
  const refused: Record<string, InputError> = {};
  await Promise.all(
    toSend.map(async (input) => {
      if (!input.file) return;
      const blob = await getBlob(input.file.stored.key).catch(() => undefined);
      if (!blob || blob.size === 0) {
        refused[input.id] = refusal('client.fileMissing');
        return;
      }
      const sniffed = await sniffAllowed(blob, acceptOf(input));
      if (!sniffed.ok) refused[input.id] = refusal(sniffed.reason as InputError['code']);
    }),
  );
  const sending = new Set(toSend.map((input) => input.id));
  for (const input of toSend) {
    if (refused[input.id] || !input.file) continue;
    const step = steps[input.stepIndex];
    // The same picture as both sides: the side taken last is the one to take again. A picture
    // merely alike is left to the service, which tells it by what the side shows (`sameSideTwice`
    // of `@/checks/document/document-side-rules`: a back without a portrait is no front, however alike).
    if (input.part === 'front' || input.part === 'back') {
      const other = planned.find(
        (o) => o.stepKey === input.stepKey && o.part === (input.part === 'front' ? 'back' : 'front'),
      );
      const mine = input.file.stored;
      const theirs = other?.file?.stored;
      if (
        other &&
        theirs?.phash &&
        mine.phash &&
        hammingDistance(mine.phash, theirs.phash) <= SAME_PICTURE_MAX_DISTANCE
      ) {
        const later =
          (mine.capturedAt ?? 0) === (theirs.capturedAt ?? 0)
            ? input.part === 'back'
            : (mine.capturedAt ?? 0) > (theirs.capturedAt ?? 0);
        if (later || !sending.has(other.id)) refused[input.id] = refusal('client.similarSides');
      }
    }
    if (step?.kind === 'custom-document' && !step.document.multiPage && (input.file.stored.pages ?? 1) > 1)
      refused[input.id] = refusal('CustomDocumentPhoto.multiPageInputError');
  }
  return refused;
}
