import { readPdf } from '@/checks/pdf/node/pdf-reader';
import type { CheckOutcome, StoredFile } from '@/checks/inputs/node/types';
import {
  fail,
  guarded,
  markerFamilies,
  notCheckedPdf,
  pass,
  pdfMarkerOutcome,
  type MarkerOption,
} from '@/checks/inputs/node/input-outcome';
import { checkPhoto } from './check-photo';

export interface CustomDocumentContext extends MarkerOption {
  page: 'front' | 'back' | 'multi';
  multiPageAllowed: boolean;
}

export function checkCustomDocument(file: StoredFile, ctx: CustomDocumentContext): Promise<CheckOutcome> {
  return guarded('documentPhoto.unexpectedData', async (facts) => {
    if (file.format === 'pdf') {
      const opened = await readPdf(file.path, { textPages: 5, owner: ctx.verification });
      if (!opened.ok && opened.reason === 'notChecked') return notCheckedPdf(opened.message, facts);
      if (!opened.ok) return fail('documentPhoto.unexpectedData', opened.message, facts);
      const marked = await pdfMarkerOutcome(file, opened.info, markerFamilies.custom, facts, ctx.markers);
      if (marked) return marked;
      if (opened.info.pageCount > 1 && !ctx.multiPageAllowed) {
        return fail(
          'CustomDocumentPhoto.multiPageInputError',
          `the PDF has ${opened.info.pageCount} pages; this document takes one page`,
          facts,
        );
      }
      const text = opened.lines.join('\n').trim();
      if (text) facts.text = text.slice(0, 4000);
      return pass(facts);
    }
    const photo = await checkPhoto(file, facts, {
      unusable: 'documentPhoto.unexpectedData',
      notAPhoto: 'a custom document must be an image or a PDF',
      small: 'documentPhoto.smallImageSize',
      family: markerFamilies.custom,
      sized: { pageCount: 1 },
      markers: ctx.markers,
      run: ctx,
    });
    return 'outcome' in photo ? photo.outcome : pass(facts);
  });
}
