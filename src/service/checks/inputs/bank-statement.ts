import { parseStatement } from '@/checks/pdf/node/bank-statement';
import { editTrace, MAX_TEXT_PAGES } from '@/checks/pdf/node/pdf';
import { readPdf } from '@/checks/pdf/node/pdf-reader';
import type { CheckOutcome, StoredFile } from '@/checks/inputs/node/types';
import {
  applyMarkers,
  fail,
  fileMarkers,
  guarded,
  markerFamilies,
  markerOutcome,
  notCheckedPdf,
  pass,
  pdfMarkerOutcome,
  type MarkerOption,
} from '@/checks/inputs/node/input-outcome';

export interface BankStatementContext extends MarkerOption {
  password?: string;
  country: string;
  institutionId: string;
}

export function checkBankStatement(file: StoredFile, ctx: BankStatementContext): Promise<CheckOutcome> {
  return guarded('bankDocument.statementNotSupported', async (facts) => {
    if (file.format !== 'pdf') {
      // No OCR here: only a marker can say more about a photographed statement.
      const scenario = applyMarkers(await fileMarkers(file.path, ctx.markers), markerFamilies.bank, facts);
      if (scenario) return markerOutcome(scenario, facts);
      return fail('bankDocument.statementNotSupported', 'only PDF statements with text can be read', facts);
    }
    const opened = await readPdf(file.path, {
      password: ctx.password,
      textPages: MAX_TEXT_PAGES,
      owner: ctx.verification,
    });
    if (!opened.ok && opened.reason === 'notChecked') return notCheckedPdf(opened.message, facts);
    if (!opened.ok) {
      if (opened.reason === 'needPassword' && !ctx.password) {
        return fail(
          'bankDocument.passwordRequired',
          'The bank statement is password-protected; a password is needed.',
          facts,
        );
      }
      if (opened.reason === 'needPassword' || opened.reason === 'wrongPassword') {
        return fail('bankDocument.passwordFailed', 'The password of the bank statement is wrong.', facts);
      }
      return fail('bankDocument.statementNotSupported', opened.message, facts);
    }
    const marked = await pdfMarkerOutcome(file, opened.info, markerFamilies.bank, facts, ctx.markers);
    if (marked) return marked;
    const trace = editTrace(opened.info);
    if (trace) return fail('bankDocument.invalidMetadata', trace, facts);
    const parsed = parseStatement(opened.lines);
    if (!parsed.ok) return fail('bankDocument.statementNotSupported', parsed.reason, facts);
    facts.bankStatement = parsed.statement;
    return pass(facts);
  });
}
