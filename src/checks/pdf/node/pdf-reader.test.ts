import { describe, expect, it } from 'vitest';
import { sample, samplePath } from '../../../../e2e/fixtures/samples';
import { STATEMENT_TITLE } from './bank-statement';
import { configurePdfReading, DEFAULT_PDF_LIMITS, readPdf } from './pdf-reader';

// The PDF reading processes, started as the service starts them (TypeScript through tsx).
describe('readPdf (child processes)', () => {
  it('reads the facts and the text of a statement', async () => {
    const reading = await readPdf(samplePath('bank-statement.pdf'), { textPages: 20 });
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.info).toMatchObject({ pageCount: 1, eofCount: 1, keywords: 'SPECIMEN' });
    expect(reading.info.creationDate).toBeInstanceOf(Date);
    expect(reading.lines.some((line) => STATEMENT_TITLE.test(line))).toBe(true);
  });

  it('tells a missing password from a wrong one, and opens with the right one', async () => {
    const protectedStatement = sample('bank-statement-protected.pdf');
    expect(await readPdf(protectedStatement.path, { textPages: 1 })).toMatchObject({
      ok: false,
      reason: 'needPassword',
    });
    expect(await readPdf(protectedStatement.path, { password: 'not-it', textPages: 1 })).toMatchObject({
      ok: false,
      reason: 'wrongPassword',
    });
    const opened = await readPdf(protectedStatement.path, {
      password: protectedStatement.password,
      textPages: 1,
    });
    expect(opened.ok && opened.lines.length).toBeGreaterThan(0);
  });

  it('answers bytes that are no PDF as corrupt', async () => {
    expect(await readPdf(samplePath('selfie-closed-eyes.jpg'), { textPages: 1 })).toMatchObject({
      ok: false,
      reason: 'corrupt',
    });
  });

  it('gives up on a reading past its time limit (not checked, not refused), and the next reading still works', async () => {
    expect(
      await readPdf(samplePath('custom-document-3-pages.pdf'), { textPages: 3, timeLimitMs: 1 }),
    ).toEqual({ ok: false, reason: 'notChecked', message: 'the PDF takes too long to read' });
    const next = await readPdf(samplePath('custom-document-3-pages.pdf'), { textPages: 3 });
    expect(next.ok && next.info.pageCount).toBe(3);
  });

  it('queues more readings than it has workers, and answers each its own', async () => {
    const files = ['bank-statement.pdf', 'custom-document-3-pages.pdf', 'custom-proof-of-income.pdf'];
    const readings = await Promise.all(
      [...files, ...files].map((file) => readPdf(samplePath(file), { textPages: 1 })),
    );
    const pages = readings.map((reading) => (reading.ok ? reading.info.pageCount : -1));
    const expected = await Promise.all(
      files.map(async (file) => {
        const one = await readPdf(samplePath(file), { textPages: 0 });
        return one.ok ? one.info.pageCount : -1;
      }),
    );
    expect(pages).toEqual([...expected, ...expected]);
    expect(pages.every((n) => n > 0)).toBe(true);
  });

  it('reads the text of PDF_TEXT_PAGES pages at most, and refuses a page past PDF_PAGE_TEXT_CHARS', async () => {
    try {
      configurePdfReading({ ...DEFAULT_PDF_LIMITS, textPages: 1 });
      const all = await readPdf(samplePath('custom-document-3-pages.pdf'), { textPages: 3 });
      configurePdfReading(DEFAULT_PDF_LIMITS);
      const three = await readPdf(samplePath('custom-document-3-pages.pdf'), { textPages: 3 });
      if (!all.ok || !three.ok) throw new Error('unread');
      expect(all.info.pageCount).toBe(3);
      expect(all.lines.length).toBeGreaterThan(0);
      expect(all.lines.length).toBeLessThan(three.lines.length);

      configurePdfReading({ ...DEFAULT_PDF_LIMITS, pageTextChars: 100 });
      expect(await readPdf(samplePath('bank-statement.pdf'), { textPages: 20 })).toEqual({
        ok: false,
        reason: 'corrupt',
        message: 'a page of the PDF holds more than 100 characters of text',
      });
    } finally {
      configurePdfReading(DEFAULT_PDF_LIMITS);
    }
  });
});
