import { SELFIE_DOCUMENT_MESSAGE, selfieShowsDocument } from '@/checks/document/selfie-document';
import { DOCUMENT_MAX_FACES } from '@/checks/face/face-rules';
import { markNotChecked, selfieFaceLook, whyNotRun } from '../face-checks';
import type { CheckOutcome, StoredFile } from '@/checks/inputs/node/types';
import {
  fail,
  guarded,
  markerFamilies,
  markerMessages,
  pass,
  type MarkerOption,
} from '@/checks/inputs/node/input-outcome';
import { checkPhoto } from './check-photo';

export function checkSelfiePhoto(file: StoredFile, options: MarkerOption = {}): Promise<CheckOutcome> {
  return guarded('selfiePhoto.validationError', async (facts) => {
    const photo = await checkPhoto(file, facts, {
      faces: true,
      document: true,
      unusable: 'selfiePhoto.validationError',
      notAPhoto: 'a selfie must be a JPEG or PNG image',
      small: 'selfiePhoto.validationError',
      family: markerFamilies.selfie,
      markers: options.markers,
      run: options,
    });
    if ('outcome' in photo) return photo.outcome;
    // A face check that cannot run (the worker died, a model did not load) is no refusal of the
    // person: the selfie is kept, marked not checked, and the verification goes to a review.
    const looked = await selfieFaceLook(photo.faces ?? file.path, facts).catch((error: unknown) => {
      markNotChecked(facts, 'faces', `the faces could not be looked at: ${whyNotRun(error)}`);
      return null;
    });
    // A photo of an ID card, a passport or any printed picture of a face is no selfie, whatever
    // face it shows (`selfieShowsDocument`: its print, or its face a small portrait on a document's
    // outline or far among print). It comes before the face's own verdict: a card's portrait with
    // its ghost image is a card, not two people; more faces than a card shows (a crowd, a group) are
    // several people first. The spec has no code for a selfie that is not the person's live face:
    // it was not taken properly.
    if (photo.document && !((facts.faces ?? 0) > DOCUMENT_MAX_FACES)) {
      const shown = selfieShowsDocument({
        width: facts.width ?? 1,
        height: facts.height ?? 1,
        outline: photo.document.verdict,
        textChars: photo.document.textChars,
        ...(photo.document.quad ? { quad: photo.document.quad } : {}),
        ...(photo.document.cards ? { cards: photo.document.cards } : {}),
        ...(looked?.face ? { face: looked.face } : {}),
      });
      if (shown) {
        facts.selfieDocument = shown;
        return fail('selfiePhoto.validationError', SELFIE_DOCUMENT_MESSAGE, facts);
      }
    }
    const verdict = looked?.verdict;
    return verdict
      ? fail(`selfiePhoto.${verdict}`, markerMessages[`selfiePhoto.${verdict}`] ?? '', facts)
      : pass(facts);
  });
}
