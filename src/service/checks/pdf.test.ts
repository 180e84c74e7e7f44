import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deflateSync } from 'node:zlib';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { samplePath } from '../../../e2e/fixtures/samples';
import { parseStatement } from '@/checks/pdf/node/bank-statement';
import { checkBankStatement } from './inputs/bank-statement';
import { checkCustomDocument } from './inputs/custom-document';
import {
  closePdf,
  editTrace,
  inflatesTooMuch,
  MAX_INFLATED_STREAM_BYTES,
  openPdf,
  type PdfInfo,
} from '@/checks/pdf/node/pdf';

const dir = mkdtempSync(join(tmpdir(), 'idv-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const created = new Date('2026-11-01T10:00:00Z');

async function makePdf(lines: string[], meta: { producer?: string; modDate?: Date } = {}) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 790 - i * 20, size: 11, font }));
  doc.setProducer(meta.producer ?? 'Bank statement service');
  doc.setCreationDate(created);
  doc.setModificationDate(meta.modDate ?? created);
  return Buffer.from(await doc.save());
}

const write = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return { path, filename: name, size: bytes.length, format: 'pdf' as const };
};

const statement = readFileSync(samplePath('bank-statement.pdf'));
const ctx = { country: 'BR', institutionId: 'br-banco-exemplo' };

describe('edit traces (bankDocument.invalidMetadata)', () => {
  const info = (over: Partial<PdfInfo>): PdfInfo => ({
    pageCount: 1,
    linearized: false,
    eofCount: 1,
    ...over,
  });

  it('flags editor producers, incremental updates and late modification dates', () => {
    expect(editTrace(info({ producer: 'Bank statement service' }))).toBeNull();
    expect(editTrace(info({ producer: 'iLovePDF' }))).toMatch(/editing tool/);
    expect(editTrace(info({ creator: 'Sejda PDF Desktop' }))).toMatch(/editing tool/);
    expect(editTrace(info({ eofCount: 2 }))).toMatch(/incremental/);
    expect(editTrace(info({ eofCount: 2, linearized: true }))).toBeNull();
    expect(
      editTrace(info({ creationDate: created, modDate: new Date(created.getTime() + 30_000) })),
    ).toBeNull();
    expect(
      editTrace(info({ creationDate: created, modDate: new Date(created.getTime() + 3_600_000) })),
    ).toMatch(/modified/);
  });

  it('finds an incremental update appended to the sample statement', async () => {
    // What an editor saving "in place" does: the old file, then changed objects, xref and %%EOF.
    const startxref = statement.length;
    const update = Buffer.from(
      `\n1000 0 obj\n(edited)\nendobj\nxref\n1000 1\n${String(startxref + 1).padStart(10, '0')} 00000 n \n` +
        `trailer\n<< /Size 1001 >>\nstartxref\n${startxref + 30}\n%%EOF\n`,
      'latin1',
    );
    const outcome = await checkBankStatement(
      write('incremental.pdf', Buffer.concat([statement, update])),
      ctx,
    );
    expect(outcome.code).toBe('bankDocument.invalidMetadata');
    expect(outcome.message).toMatch(/incremental/);
  });

  it('finds a modification date days after creation', async () => {
    const bytes = await makePdf(['ACCOUNT STATEMENT'], { modDate: new Date('2026-11-05T10:00:00Z') });
    const outcome = await checkBankStatement(write('late.pdf', bytes), ctx);
    expect(outcome).toMatchObject({
      code: 'bankDocument.invalidMetadata',
      message: expect.stringMatching(/modified/),
    });
  });

  it('reads the sample metadata', async () => {
    const opened = await openPdf(samplePath('bank-statement.pdf'));
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.info).toMatchObject({ pageCount: 1, eofCount: 1, keywords: 'SPECIMEN' });
    expect(opened.info.creationDate?.toISOString()).toBe(created.toISOString());
    await closePdf(opened.doc);
  });
});

describe('statement template', () => {
  const base = [
    'BANCO - ACCOUNT STATEMENT',
    'Institution: Banco Exemplo S.A.',
    'Account holder: ANA SPECIMEN',
    'Account number: 1-2',
    'Currency: BRL',
    '2026-10-01 Salary 1,000.50',
    '2026-10-02 Card purchase -20.00',
    'Current balance: 980.50',
  ];

  it('parses a minimal statement and defaults the optional parts', () => {
    const parsed = parseStatement(base);
    expect(parsed).toEqual({
      ok: true,
      statement: {
        accounts: [{ institution: 'Banco Exemplo S.A.', type: 'checking', number: '1-2', currency: 'BRL' }],
        transactions: [
          { date: '2026-10-01', amount: 1000.5, description: 'Salary' },
          { date: '2026-10-02', amount: -20, description: 'Card purchase' },
        ],
        current_balance: 980.5,
        available_balance: 980.5,
        identity: { name: 'ANA SPECIMEN', email: null, phone: null },
      },
    });
  });

  it('refuses text without the title, a required label or any transaction', () => {
    expect(parseStatement(base.slice(1))).toMatchObject({ ok: false, reason: 'no statement title' });
    expect(parseStatement(base.filter((l) => !l.startsWith('Currency')))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Currency/),
    });
    expect(parseStatement(base.filter((l) => !/^\d{4}/.test(l)))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no transactions/),
    });
    expect(parseStatement([])).toMatchObject({ ok: false });
  });

  it('reads the template from a real PDF and refuses a text-less one', async () => {
    const good = await checkBankStatement(write('min.pdf', await makePdf(base)), ctx);
    expect(good.code).toBeNull();
    expect(good.facts.bankStatement?.transactions).toHaveLength(2);
    const blank = await checkBankStatement(write('blank.pdf', await makePdf([])), ctx);
    expect(blank).toMatchObject({
      code: 'bankDocument.statementNotSupported',
      message: 'no statement title',
    });
  });

  it('does not read an image as a statement', async () => {
    const path = samplePath('selfie.jpg');
    const outcome = await checkBankStatement({ path, filename: 'x.jpg', size: 1, format: 'jpeg' }, ctx);
    expect(outcome.code).toBe('bankDocument.statementNotSupported');
  });
});

describe('PDF bombs', () => {
  it('measures what zlib streams inflate to, within caps', async () => {
    const body = deflateSync(Buffer.alloc(2 * 1024 * 1024));
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n1 0 obj\n<< /Filter /FlateDecode >>\nstream\n'),
      body,
      Buffer.from('\nendstream\nendobj\n'),
    ]);
    expect(await inflatesTooMuch(pdf, { stream: 4 * 1024 * 1024, total: 8 * 1024 * 1024 })).toBe(false);
    expect(await inflatesTooMuch(pdf, { stream: 1024 * 1024, total: 8 * 1024 * 1024 })).toBe(true);
    expect(
      await inflatesTooMuch(Buffer.concat([pdf, pdf, pdf]), {
        stream: 4 * 1024 * 1024,
        total: 5 * 1024 * 1024,
      }),
    ).toBe(true);
    expect(await inflatesTooMuch(statement)).toBe(false);
  });

  it('refuses a PDF whose stream would inflate past the bound before pdfjs sees it', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('SPECIMEN');
    // One stream just over the per-stream bound (the total bound is tested above).
    const bomb = deflateSync(Buffer.alloc(MAX_INFLATED_STREAM_BYTES + 1024 * 1024), { level: 1 });
    doc.context.register(doc.context.stream(bomb, { Filter: 'FlateDecode' }));
    const file = write('bomb.pdf', await doc.save());
    expect(file.size).toBeLessThan(2 * 1024 * 1024);
    const bank = await checkBankStatement(file, ctx);
    expect(bank).toMatchObject({
      code: 'bankDocument.statementNotSupported',
      message: expect.stringMatching(/expands/),
    });
    const custom = await checkCustomDocument({ ...file }, { page: 'multi', multiPageAllowed: true });
    expect(custom.code).toBe('documentPhoto.unexpectedData');
  });
});
