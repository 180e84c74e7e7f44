import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyTextPdf } from '../../../e2e/fixtures/heavy-pdf';
import { samplePath } from '../../../e2e/fixtures/samples';
import { createVerification, sendInput, startService, type RunningService } from '../testing/harness';

// Every reading the checks ask for, counted as it is asked: the test sends the valid statement
// once the heavy files are all with the readers, whatever the machine's speed.
const asked = vi.hoisted(() => ({ readings: 0 }));
vi.mock('../../checks/pdf/node/pdf-reader', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/checks/pdf/node/pdf-reader')>();
  return {
    ...original,
    readPdf: (...args: Parameters<typeof original.readPdf>) => {
      asked.readings++;
      return original.readPdf(...args);
    },
  };
});

let svc: RunningService;
beforeAll(async () => {
  // The heavy files are refused by the bounds on what is read, not by the clock: on a loaded
  // machine a reading of one may pass the default 15 s, and be accepted unread for a review.
  svc = await startService({ PDF_READ_TIMEOUT_MS: '120000' });
});
afterAll(() => svc?.close());

const incomeProof = (filename: string) => ({
  inputType: 'custom-document-photo',
  group: 1,
  data: { type: 'custom-proof-of-income', page: 'multi', filename },
});
const statement = (filename: string) => ({
  inputType: 'financial-information-bank-statement-parsing-request',
  data: { type: 'bank-document', country: 'BR', institutionId: 'br-banco-exemplo', filename },
});
type Answer = { result: boolean; error?: { code: string; message: string } }[];

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

// Issue 21 item 4: four PDFs of 4 pages of 60 MB Flate text each (under the inflate caps) must not
// keep a valid statement of another verification waiting behind them.
describe('PDF readers under heavy files', () => {
  it('answers a valid statement of verification B before the heavy files of A1 and A2, and refuses those', async () => {
    const heavy = await heavyTextPdf();
    expect(heavy.length).toBeLessThan(1.2 * 1024 * 1024);
    const valid = readFileSync(samplePath('bank-statement.pdf'));
    const [a1, a2, b] = await Promise.all(
      ['A1', 'A2', 'B'].map(() => createVerification(svc, 'br-bank').then((v) => v.identity)),
    );
    const order: string[] = [];
    const send = (
      label: string,
      identity: string,
      inputs: unknown[],
      files: Parameters<typeof sendInput>[3],
    ) =>
      sendInput(svc, identity, inputs, files).then((answer) => {
        order.push(label);
        return answer;
      });
    // Each attacker's verification sends two heavy PDFs at once (its income proof and its statement).
    const heavyInputs = [incomeProof('income.pdf'), statement('statement.pdf')];
    const heavyFiles = [
      { field: 'custom-document', name: 'income.pdf', bytes: heavy },
      { field: 'bank-document', name: 'statement.pdf', bytes: heavy },
    ];
    const attacks = [send('A1', a1, heavyInputs, heavyFiles), send('A2', a2, heavyInputs, heavyFiles)];
    await until(() => asked.readings === 4);
    const answerB = await send(
      'B',
      b,
      [statement('statement.pdf')],
      [{ field: 'bank-document', name: 'statement.pdf', bytes: valid }],
    );
    expect(answerB.status).toBe(201);
    expect((answerB.body as Answer)[0]).toMatchObject({ result: true });
    // B's reading did not wait for theirs.
    expect(order).toEqual(['B']);

    const answers = await Promise.all(attacks);
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect((answer.body as Answer).map((input) => input.error?.code)).toEqual([
        'documentPhoto.unexpectedData',
        // Refused on its own reading: a failed input no longer blocks the later ones (issue 35).
        'bankDocument.statementNotSupported',
      ]);
    }
  }, 180_000);
});
