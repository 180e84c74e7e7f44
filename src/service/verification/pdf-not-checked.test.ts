import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema } from '@/shared/contract/verification';
import { heavyTextPdf } from '../../../e2e/fixtures/heavy-pdf';
import { sample } from '../../../e2e/fixtures/samples';
import {
  createVerification,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

// A PDF whose reading runs out of time is not refused, as nothing is known against it, and never
// passes: the input is accepted unread and the verification goes to review, the step it feeds
// saying why. The PDFs are slow to read (pages of megabytes of text, heavy-pdf.ts) as well as the
// limit short: with the samples (a few milliseconds to read), the statement once came back read
// under the 1 ms limit on a loaded machine. A timer runs only when the event loop reaches it, and
// an answer that is there first is taken.
let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ UPLOAD_WAIT_SECONDS: '600', PDF_READ_TIMEOUT_MS: '1' });
});
afterAll(() => svc?.close());

const part = (field: string, file: string) => ({
  field,
  name: file,
  bytes: fs.readFileSync(sample(file).path),
});
let slowPdf: Buffer;
beforeAll(async () => {
  slowPdf = await heavyTextPdf({ pages: 2, mb: 16 });
});

describe('a PDF reading out of time', () => {
  it(
    'accepts the statement and the income proof unread, and the verification needs a review',
    { timeout: 120_000 },
    async () => {
      const v = await createVerification(svc, 'br-bank');
      const document = (page: 'front' | 'back', filename: string) => ({
        inputType: 'document-photo',
        group: 0,
        data: { type: 'national-id', country: 'BR', page, filename },
      });
      const sent = await sendInput(
        svc,
        v.identity,
        [
          document('front', 'br-national-id-front.jpg'),
          document('back', 'br-national-id-back.jpg'),
          { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: 'selfie.jpg' } },
          {
            inputType: 'custom-document-photo',
            group: 1,
            data: { type: 'custom-proof-of-income', page: 'multi', filename: 'custom-proof-of-income.pdf' },
          },
          {
            inputType: 'financial-information-bank-statement-parsing-request',
            data: {
              type: 'bank-document',
              country: 'BR',
              institutionId: 'br-banco-exemplo',
              filename: 'bank-statement.pdf',
            },
          },
        ],
        [
          part('document', 'br-national-id-front.jpg'),
          part('document', 'br-national-id-back.jpg'),
          part('selfie', 'selfie.jpg'),
          { field: 'custom-document', name: 'custom-proof-of-income.pdf', bytes: slowPdf },
          { field: 'bank-document', name: 'bank-statement.pdf', bytes: slowPdf },
        ],
      );
      expect(sent.status).toBe(201);
      expect((sent.body as { result: boolean }[]).map((r) => r.result)).toEqual([
        true,
        true,
        true,
        true,
        true,
      ]);
      const data = verificationDataSchema.parse(
        await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], 90_000),
      );
      expect(data.identity.status).toBe('reviewNeeded');
      expect(data.steps.find((s) => s.id === 'bank-statement')?.error).toMatchObject({
        code: 'bank-statement.notChecked',
        message: expect.stringMatching(/not read: the PDF takes too long to read/),
      });
      expect(data.financialInformation?.bankStatement).toBeUndefined();
      const income = data.documents.find((d) => d.type === 'custom-proof-of-income');
      expect(income?.steps.find((s) => s.id === 'document-reading')?.error).toMatchObject({
        code: 'document-reading.notChecked',
      });
    },
  );
});
