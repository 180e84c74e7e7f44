// Bank statement samples: a parseable statement, the same protected by qpdf, edited by an online
// PDF editor, and a layout no template reads.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, rgb } from 'pdf-lib';
import type { ErrorCode } from '@/shared/error-codes';
import type { SampleEntry } from '../../e2e/fixtures/samples';
import { add, outDir, save, work } from './output';
import { pdfWithLines } from './pdfs';
import { people } from './people';

const statementLines = (institution: string, holder: typeof people.br) => [
  `${institution.toUpperCase()} - ACCOUNT STATEMENT`,
  'SPECIMEN - NOT A REAL BANK STATEMENT',
  `Institution: ${institution}`,
  `Account holder: ${holder.fullName}`,
  'Email: ana.specimen@example.com',
  'Phone: +55 11 90000-0001',
  'Account type: checking',
  'Account number: 0001-123456-7',
  'Currency: BRL',
  'Period: 2026-10-01 to 2026-10-31',
  '',
  'Date Description Amount',
  '2026-10-01 Salary deposit 5,200.00',
  '2026-10-03 Rent payment -1,800.00',
  '2026-10-07 Supermarket purchase -342.75',
  '2026-10-12 Pix transfer received 150.00',
  '2026-10-18 Electricity bill -189.40',
  '2026-10-22 Restaurant purchase -96.30',
  '2026-10-28 ATM withdrawal -200.00',
  '',
  'Current balance: 2,721.55',
  'Available balance: 2,521.55',
];
const expectedStatement = {
  accounts: [
    { institution: 'Banco Exemplo S.A.', type: 'checking', number: '0001-123456-7', currency: 'BRL' },
  ],
  transactions: [
    { date: '2026-10-01', amount: 5200, description: 'Salary deposit' },
    { date: '2026-10-03', amount: -1800, description: 'Rent payment' },
    { date: '2026-10-07', amount: -342.75, description: 'Supermarket purchase' },
    { date: '2026-10-12', amount: 150, description: 'Pix transfer received' },
    { date: '2026-10-18', amount: -189.4, description: 'Electricity bill' },
    { date: '2026-10-22', amount: -96.3, description: 'Restaurant purchase' },
    { date: '2026-10-28', amount: -200, description: 'ATM withdrawal' },
  ],
  current_balance: 2721.55,
  available_balance: 2521.55,
  identity: { name: people.br.fullName, email: 'ana.specimen@example.com', phone: '+55 11 90000-0001' },
};
const bankEntry = (
  file: string,
  expectedCode: ErrorCode | null,
  note: string,
  extra: Partial<SampleEntry> = {},
): SampleEntry => ({
  file,
  field: 'bank-document',
  inputType: 'financial-information-bank-statement-parsing-request',
  expectedCode,
  country: 'BR',
  institutionId: 'br-banco-exemplo',
  note,
  ...extra,
});

export async function writeBankStatements() {
  const statement = await pdfWithLines([statementLines('Banco Exemplo S.A.', people.br)], {
    title: 'SPECIMEN account statement',
    producer: 'Banco Exemplo statement service (SPECIMEN)',
    keywords: ['SPECIMEN'],
  });
  save('bank-statement.pdf', statement);
  add(
    bankEntry('bank-statement.pdf', null, 'parseable statement (template IDV statement v1), 7 transactions', {
      statement: expectedStatement,
    }),
  );

  {
    const plain = join(work, 'statement.pdf');
    writeFileSync(plain, statement);
    const password = 'specimen-1234';
    execFileSync('qpdf', [
      '--static-id',
      '--static-aes-iv',
      '--encrypt',
      password,
      'owner-specimen',
      '256',
      '--',
      plain,
      join(outDir, 'bank-statement-protected.pdf'),
    ]);
    add(
      bankEntry(
        'bank-statement-protected.pdf',
        null,
        'the same statement, AES-256 with a user password: without it passwordRequired, with another passwordFailed',
        {
          password,
          statement: expectedStatement,
        },
      ),
    );
  }
  {
    const edited = await PDFDocument.load(statement, { updateMetadata: false });
    const page = edited.getPage(0);
    page.drawRectangle({ x: 300, y: 378, width: 120, height: 14, color: rgb(1, 1, 1) });
    edited.setProducer('iLovePDF');
    edited.setModificationDate(new Date('2026-11-04T16:20:00Z'));
    save('bank-statement-edited.pdf', Buffer.from(await edited.save({ useObjectStreams: false })));
    add(
      bankEntry(
        'bank-statement-edited.pdf',
        'bankDocument.invalidMetadata',
        'the statement saved again by an online PDF editor: Producer iLovePDF, ModDate 3 days after CreationDate',
      ),
    );
  }
  save(
    'bank-statement-unsupported.pdf',
    await pdfWithLines(
      [
        [
          'CAIXA DEMO - RESUMO MENSAL',
          'SPECIMEN - NOT A REAL BANK DOCUMENT',
          `Cliente ${people.br.fullName}`,
          'Data        Historico                 Valor (R$)',
          '01/10/2026  Credito salario           5.200,00',
          '03/10/2026  Aluguel                   -1.800,00',
          'Saldo final R$ 3.400,00',
        ],
      ],
      { title: 'SPECIMEN summary', producer: 'Caixa Demo (SPECIMEN)' },
    ),
  );
  add(
    bankEntry(
      'bank-statement-unsupported.pdf',
      'bankDocument.statementNotSupported',
      'a monthly summary in another layout (no ACCOUNT STATEMENT template)',
      { institutionId: 'br-caixa-demo' },
    ),
  );
}
