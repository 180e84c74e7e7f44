import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniffFormat } from '@/shared/file-format';
import { hammingDistance, SIMILAR_HASH_MAX_DISTANCE } from '@/checks/image/image-metrics';
import { loadSamples, sample, type SampleEntry } from '../../../e2e/fixtures/samples';
import { checkBankStatement } from './inputs/bank-statement';
import { checkCustomDocument } from './inputs/custom-document';
import { checkDocumentPhoto } from './inputs/document-photo';
import { checkSelfiePhoto } from './inputs/selfie-photo';
import { checkSelfieVideo } from './inputs/selfie-video';
import type { CheckOutcome, StoredFile } from '@/checks/inputs/node/types';

/** What the route hands over: the file on disk and its sniffed format. */
function stored(file: string): StoredFile {
  const { path } = sample(file);
  const head = Buffer.alloc(1024);
  const fd = openSync(path, 'r');
  const read = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const format = sniffFormat(head.subarray(0, read));
  if (!format) throw new Error(`${file}: format not recognised`);
  return { path, filename: file, size: statSync(path).size, format };
}

/** The samples carry their scenario in a marker: read, as with DEMO_SCENARIOS=on. */
const markers = true;

async function check(
  entry: SampleEntry,
  overrides: { password?: string; multiPageAllowed?: boolean } = {},
): Promise<CheckOutcome> {
  const file = stored(entry.file);
  switch (entry.field) {
    case 'document': {
      const otherSide = entry.otherSideFile
        ? { phash: (await checkOnce(sample(entry.otherSideFile))).facts.phash }
        : undefined;
      return checkDocumentPhoto(file, {
        type: entry.docType as 'national-id',
        country: entry.country ?? '',
        page: entry.page as 'front' | 'back',
        requires: entry.requires ?? [],
        otherSide,
        // Every demo flow has a selfie or a video, so a portrait must be found on a document front.
        faceRequired: true,
        markers,
      });
    }
    case 'selfie':
      return checkSelfiePhoto(file, { markers });
    case 'video':
      return checkSelfieVideo(file, null, { markers });
    case 'custom-document':
      return checkCustomDocument(file, {
        page: entry.page ?? 'front',
        multiPageAllowed: overrides.multiPageAllowed ?? entry.multiPageAllowed ?? false,
        markers,
      });
    case 'bank-document':
      return checkBankStatement(file, {
        country: entry.country ?? 'BR',
        institutionId: entry.institutionId ?? '',
        password: 'password' in overrides ? overrides.password : entry.password,
        markers,
      });
  }
}

/**
 * A sample checked in its manifest's context, once per file: the checks are deterministic, and the
 * tests that look at the same outcome (its facts, its phash against the other side's) share it
 * instead of decoding, reading and looking for faces in the same photo again.
 */
const outcomes = new Map<string, Promise<CheckOutcome>>();
function checkOnce(entry: SampleEntry): Promise<CheckOutcome> {
  let outcome = outcomes.get(entry.file);
  if (!outcome) {
    outcome = check(entry);
    outcomes.set(entry.file, outcome);
  }
  return outcome;
}

const samples = loadSamples();

describe('the committed samples, checked one by one', () => {
  it('has a sample for every code the checks produce from a file', () => {
    const codes = new Set(samples.map((s) => s.expectedCode));
    for (const code of [
      null,
      'documentPhoto.smallImageSize',
      'documentPhoto.grayscaleImage',
      'documentPhoto.blurryText',
      'documentPhoto.similarImages',
      'documentPhoto.noPdf417',
      'voiceVideo.conversionFailed',
      'bankDocument.invalidMetadata',
      'bankDocument.statementNotSupported',
      'CustomDocumentPhoto.multiPageInputError',
      'selfiePhoto.validationError',
    ]) {
      expect(codes, String(code)).toContain(code);
    }
  });

  // Video frames are read by FFmpeg from npm (wasm) on any machine: the face codes are measured.
  const needsFrames = (s: SampleEntry) =>
    s.field === 'video' &&
    (s.expectedCode === 'voiceVideo.noFace' || s.expectedCode === 'voiceVideo.multipleFaces');
  it.each(samples.filter(needsFrames).map((s) => [s.file, s.expectedCode] as const))(
    '%s: its frames are looked at (%s) with no system FFmpeg',
    { timeout: 60_000 },
    async (file, code) => {
      expect((await checkOnce(sample(file))).code).toBe(code);
    },
  );

  // The code each sample gets is asserted through the real API (send-input-samples.test.ts); here
  // only the samples whose checks also hand over facts (the person read, the statement parsed, a
  // clean document's measures), which the API does not answer.
  const withFacts = (s: SampleEntry) =>
    (s.person !== undefined && s.expectedCode !== 'documentPhoto.smallImageSize') ||
    s.statement !== undefined ||
    (s.field === 'document' && s.expectedCode === null);
  it.each(samples.filter(withFacts).map((s) => [s.file, s] as const))(
    '%s: its code and the facts it hands over',
    async (_file, entry) => {
      const outcome: CheckOutcome = await checkOnce(entry);
      expect(outcome.code, outcome.message).toBe(entry.expectedCode);
      if (entry.expectedCode === null) expect(outcome.message).toBeUndefined();
      else expect(outcome.message).toBeTruthy();
      if (entry.person && entry.expectedCode !== 'documentPhoto.smallImageSize') {
        expect(outcome.facts.person).toEqual(entry.person);
      }
      if (entry.field === 'document' && entry.expectedCode === null) {
        expect(outcome.facts).toMatchObject({ grayscale: false, width: expect.any(Number) });
        expect(outcome.facts.phash).toMatch(/^[0-9a-f]{16}$/);
      }
      if (entry.statement) expect(outcome.facts.bankStatement).toEqual(entry.statement);
    },
  );
});

describe('samples in other contexts', () => {
  it('reads the PDF417 of the Argentine back and the person encoded in it', async () => {
    const entry = sample('ar-national-id-back.jpg');
    const outcome = await checkDocumentPhoto(stored(entry.file), {
      type: 'national-id',
      country: 'AR',
      page: 'back',
      requires: ['pdf417'],
    });
    expect(outcome.facts.pdf417).toBe(true);
    expect(outcome.facts.person?.documentNumber).toBe('30123456');
  });

  it('answers the protected statement by the password given', async () => {
    const entry = sample('bank-statement-protected.pdf');
    expect((await check(entry, { password: undefined })).code).toBe('bankDocument.passwordRequired');
    expect((await check(entry, { password: 'not-it' })).code).toBe('bankDocument.passwordFailed');
    expect((await checkOnce(entry)).code).toBeNull();
  });

  it('accepts the three-page custom document where the flow allows several pages', async () => {
    const outcome = await check(sample('custom-document-3-pages.pdf'), { multiPageAllowed: true });
    expect(outcome.code).toBeNull();
    expect(outcome.facts.pageCount).toBe(3);
    expect(outcome.facts.text).toMatch(/PROOF OF INCOME/);
  });

  it('keeps the two sides of every clean two-sided document apart', async () => {
    for (const [front, back] of [
      ['ar-national-id-front.jpg', 'ar-national-id-back.jpg'],
      ['mx-ine-front.jpg', 'mx-ine-back.jpg'],
      ['br-national-id-front.jpg', 'br-national-id-back.jpg'],
      ['br-driving-license-front.jpg', 'br-driving-license-back.jpg'],
    ]) {
      const [a, b] = await Promise.all([checkOnce(sample(front)), checkOnce(sample(back))]);
      expect(hammingDistance(a.facts.phash ?? '', b.facts.phash ?? ''), front).toBeGreaterThan(
        SIMILAR_HASH_MAX_DISTANCE,
      );
    }
  });
});
