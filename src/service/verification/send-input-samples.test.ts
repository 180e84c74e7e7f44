import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '@/shared/error-codes';
import { warmFaceReader } from '../checks/face-reader';
import { warmMrzReader } from '@/checks/mrz/node/mrz';
import { warmPdfReader } from '@/checks/pdf/node/pdf-reader';
import { loadFlows } from './flows';
import { planFlow } from '@/shared/flow-plan';
import { createVerification, sendInput, startService, type RunningService } from '../testing/harness';
import { loadSamples, sample, type SampleEntry } from '../../../e2e/fixtures/samples';
import type { UploadPart } from '../../../e2e/fixtures/send-input-form';

// Every error code of service spec 7.2 through the real API: the committed samples (their manifest says
// which code each gets in which context), plus the codes that come from the request's structure.

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  // As main.ts does: pdf.js, the face models and the OCR data load ahead of the samples, so that
  // a cold start under the face and MRZ checks running beside it stays within the PDF time limit.
  warmPdfReader();
  warmFaceReader();
  await warmMrzReader();
});
afterAll(() => svc.close());

const plans = [...loadFlows().values()].map(planFlow);
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/** The demo flow and group where a sample belongs (its step's checks matching if possible). */
function placeOf(entry: SampleEntry): { flowId: string; group?: number; customType?: string } {
  for (const strict of [true, false]) {
    for (const plan of plans) {
      if (entry.field === 'document') {
        const doc = plan.documents.find(
          (d) =>
            d.kind === 'document' &&
            d.step.types.includes(entry.docType as 'passport') &&
            d.step.countries.includes(entry.country ?? '') &&
            (!strict || sameSet(d.step.requires, entry.requires ?? [])),
        );
        if (doc) return { flowId: plan.flow.id, group: doc.group };
      } else if (entry.field === 'custom-document') {
        const doc = plan.documents.find(
          (d) =>
            d.kind === 'custom' &&
            d.doc.multiPage === (entry.multiPageAllowed ?? false) &&
            (!strict || d.doc.type === entry.docType),
        );
        if (doc && doc.kind === 'custom')
          return { flowId: plan.flow.id, group: doc.group, customType: doc.doc.type };
      } else if (entry.field === 'selfie' && plan.biometric === 'selfie-photo')
        return { flowId: plan.flow.id };
      else if (entry.field === 'video' && plan.biometric === 'selfie-video') return { flowId: plan.flow.id };
      else if (entry.field === 'bank-document' && plan.bank) return { flowId: plan.flow.id };
    }
  }
  throw new Error(`no demo flow takes ${entry.file}`);
}

function descriptorOf(
  entry: SampleEntry,
  place: ReturnType<typeof placeOf>,
  file = entry.file,
  options: { password?: string } = { password: entry.password },
) {
  const { password } = options;
  switch (entry.field) {
    case 'document':
      return {
        inputType: 'document-photo',
        group: place.group,
        data: { type: entry.docType, country: entry.country, page: entry.page, filename: file },
      };
    case 'selfie':
      return { inputType: 'selfie-photo', data: { type: 'selfie-photo', filename: file } };
    case 'video':
      return { inputType: 'selfie-video', data: { filename: file } };
    case 'custom-document':
      return {
        inputType: 'custom-document-photo',
        group: place.group,
        data: { type: place.customType, page: entry.page, filename: file },
      };
    case 'bank-document':
      return {
        inputType: 'financial-information-bank-statement-parsing-request',
        data: {
          type: 'bank-document',
          country: entry.country ?? 'BR',
          institutionId: entry.institutionId,
          filename: file,
          ...(password !== undefined ? { password } : {}),
        },
      };
  }
}

const part = (entry: SampleEntry, name = entry.file): UploadPart => ({
  field: entry.field,
  name,
  bytes: fs.readFileSync(sample(entry.file).path),
});

type Result = { result: boolean; error?: { code: ErrorCode; type: string } };

/** Sends one sample (after its other side, if it has one); answers the sample's own result. */
async function send(entry: SampleEntry, options: { password?: string | undefined } = {}) {
  const place = placeOf(entry);
  const v = await createVerification(svc, place.flowId);
  const inputs: unknown[] = [];
  const files: UploadPart[] = [];
  if (entry.otherSideFile) {
    const other = sample(entry.otherSideFile);
    inputs.push(descriptorOf(other, placeOf(other)));
    files.push(part(other));
  }
  inputs.push(
    descriptorOf(entry, place, entry.file, 'password' in options ? options : { password: entry.password }),
  );
  files.push(part(entry));
  const { status, body } = await sendInput(svc, v.identity, inputs, files);
  expect(status, `${entry.file}: ${JSON.stringify(body)}`).toBe(201);
  const results = body as Result[];
  if (entry.otherSideFile) expect(results[0].result, `${entry.otherSideFile} first`).toBe(true);
  return results.at(-1)!;
}

describe('every error code of send-input through the real API', () => {
  const produced = new Set<ErrorCode>();

  // One test a sample, a few at a time (Vitest's maxConcurrency): each sample has its own
  // verification, and the service's checks run on its own worker threads.
  describe.concurrent('each committed sample gets the code its manifest names', () => {
    it.each(loadSamples().map((entry) => [entry.file, entry] as const))('%s', async (_file, entry) => {
      const result = await send(entry);
      expect(result.result ? null : result.error?.code, entry.file).toBe(entry.expectedCode);
      if (!result.result) {
        produced.add(result.error!.code);
        expect(result.error!.type).toBe(
          ['documentPhoto.unexpectedData', 'voiceVideo.conversionFailed'].includes(result.error!.code)
            ? 'SystemError'
            : 'ValidationError',
        );
      }
    });
  });

  it('asks for the password of a protected statement and refuses a wrong one', async () => {
    const protectedStatement = loadSamples().find((s) => s.field === 'bank-document' && s.password)!;
    const none = await send(protectedStatement, { password: undefined });
    expect(none.error?.code).toBe('bankDocument.passwordRequired');
    const wrong = await send(protectedStatement, { password: 'not-the-password' });
    expect(wrong.error?.code).toBe('bankDocument.passwordFailed');
    const right = await send(protectedStatement);
    expect(right.result).toBe(true);
    // The password is neither echoed back nor kept.
    expect(JSON.stringify(right)).not.toContain(protectedStatement.password);
    expect(JSON.stringify(wrong)).not.toContain('not-the-password');
    for (const file of fs.readdirSync(svc.dataDir).filter((f) => f.startsWith('service.sqlite'))) {
      expect(fs.readFileSync(path.join(svc.dataDir, file)).includes(protectedStatement.password!)).toBe(
        false,
      );
    }
    produced.add('bankDocument.passwordRequired').add('bankDocument.passwordFailed');
  });

  it('gives the codes of the request structure', async () => {
    const good = loadSamples().find((s) => s.file === 'ar-national-id-front.jpg')!;
    const back = loadSamples().find((s) => s.file === 'ar-national-id-back.jpg')!;
    const bad = loadSamples().find((s) => s.expectedCode === 'documentPhoto.blurryText')!;
    const selfie = loadSamples().find((s) => s.field === 'selfie' && s.expectedCode === null)!;
    const statement = loadSamples().find(
      (s) => s.field === 'bank-document' && s.expectedCode === null && !s.password,
    )!;

    const v = await createVerification(svc, 'ar-national-id');
    const first = await sendInput(
      svc,
      v.identity,
      [
        descriptorOf(bad, placeOf(bad)),
        descriptorOf(back, placeOf(back)),
        descriptorOf(selfie, placeOf(selfie), 'missing.jpg'),
      ],
      [part(bad), part(back), part(selfie)],
    );
    const [blurry, blocked, unnamed] = first.body as Result[];
    expect(blurry.error?.code).toBe('documentPhoto.blurryText');
    // Only the back waits for its failed front; the selfie is checked on its own (issue 35).
    expect(blocked.error?.code).toBe('documentPhoto.FirstInputNotProcessed');
    expect(unnamed.error?.code).toBe('media.notFound');

    const w = await createVerification(svc, 'ar-national-id');
    const missing = await sendInput(
      svc,
      w.identity,
      [descriptorOf(good, placeOf(good), 'other-name.jpg')],
      [part(good)],
    );
    expect((missing.body as Result[])[0].error?.code).toBe('media.notFound');

    const b = await createVerification(svc, 'br-bank');
    const renamed = await sendInput(
      svc,
      b.identity,
      [descriptorOf(statement, placeOf(statement), 'statement-2.pdf')],
      [part(statement)],
    );
    expect((renamed.body as Result[])[0].error?.code).toBe('bankDocument.badFileName');
    produced
      .add('documentPhoto.FirstInputNotProcessed')
      .add('media.notFound')
      .add('bankDocument.badFileName');
  });

  it('has produced all 38 codes', () => {
    expect([...produced].sort()).toEqual([...errorCodes].sort());
  });
});
