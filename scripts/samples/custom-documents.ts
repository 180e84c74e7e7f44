// Custom document samples: payslips and a proof of address, as PDFs (one page or three) and a PNG.
import type { ErrorCode } from '@/shared/error-codes';
import type { SampleEntry } from '../../e2e/fixtures/samples';
import { esc, render } from './drawing';
import { add, save } from './output';
import { pdfWithLines } from './pdfs';
import { people } from './people';

const customEntry = (
  file: string,
  expectedCode: ErrorCode | null,
  note: string,
  shape: Required<Pick<SampleEntry, 'docType' | 'page' | 'multiPageAllowed'>>,
): SampleEntry => ({
  file,
  field: 'custom-document',
  inputType: 'custom-document-photo',
  expectedCode,
  docType: shape.docType,
  page: shape.page,
  multiPageAllowed: shape.multiPageAllowed,
  note,
});

const incomeLines = (page: number, pages: number) => [
  `PROOF OF INCOME - PAYSLIP ${page}/${pages}`,
  'SPECIMEN - NOT A REAL DOCUMENT',
  `Employee: ${people.br.fullName}`,
  'Employer: Empresa Exemplo Ltda. (SPECIMEN)',
  `Month: 2026-${String(7 + page).padStart(2, '0')}`,
  'Gross salary: BRL 6,500.00',
  'Net salary: BRL 5,200.00',
];

export async function writeCustomDocuments() {
  save(
    'custom-proof-of-income.pdf',
    await pdfWithLines([incomeLines(1, 1)], {
      title: 'SPECIMEN payslip',
      producer: 'Empresa Exemplo payroll (SPECIMEN)',
    }),
  );
  add(
    customEntry('custom-proof-of-income.pdf', null, 'single-page payslip PDF (flow br-bank)', {
      docType: 'custom-proof-of-income',
      page: 'multi',
      multiPageAllowed: true,
    }),
  );
  save(
    'custom-document-3-pages.pdf',
    await pdfWithLines(
      [1, 2, 3].map((n) => incomeLines(n, 3)),
      { title: 'SPECIMEN payslips', producer: 'Empresa Exemplo payroll (SPECIMEN)' },
    ),
  );
  add(
    customEntry(
      'custom-document-3-pages.pdf',
      'CustomDocumentPhoto.multiPageInputError',
      'three pages: refused where the flow takes one page (mx-ine-full proof of address); accepted where multi-page is allowed (br-bank)',
      {
        docType: 'custom-proof-of-address',
        page: 'multi',
        multiPageAllowed: false,
      },
    ),
  );
  save(
    'custom-proof-of-address.pdf',
    await pdfWithLines(
      [
        [
          'PROOF OF ADDRESS - UTILITY BILL',
          'SPECIMEN - NOT A REAL DOCUMENT',
          `Customer: ${people.mx.fullName}`,
          `Address: ${people.mx.address}`,
          'Bill date: 2026-10-05',
        ],
      ],
      { title: 'SPECIMEN bill', producer: 'Luz Demo (SPECIMEN)' },
    ),
  );
  add(
    customEntry('custom-proof-of-address.pdf', null, 'one-page proof of address PDF (flow mx-ine-full)', {
      docType: 'custom-proof-of-address',
      page: 'front',
      multiPageAllowed: false,
    }),
  );
  {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1100"><rect width="800" height="1100" fill="#fdfcdc"/><rect width="800" height="120" fill="#0081a7"/>
    <text x="40" y="75" font-family="DejaVu Sans" font-weight="bold" font-size="38" fill="#fff">PROOF OF INCOME · SPECIMEN</text>
    ${incomeLines(1, 1)
      .slice(1)
      .map(
        (line, i) =>
          `<text x="40" y="${200 + i * 60}" font-family="DejaVu Sans" font-size="28" fill="#222">${esc(line)}</text>`,
      )
      .join('')}
    <text x="400" y="800" text-anchor="middle" transform="rotate(-30 400 800)" font-family="DejaVu Sans" font-weight="bold" font-size="130" fill="#d7263d" fill-opacity="0.3">SPECIMEN</text></svg>`;
    save(
      'custom-proof-of-income-front.png',
      await render(svg).png({ palette: true, colours: 64 }).toBuffer(),
    );
    add(
      customEntry('custom-proof-of-income-front.png', null, 'payslip photographed as a PNG', {
        docType: 'custom-proof-of-income',
        page: 'front',
        multiPageAllowed: true,
      }),
    );
  }
}
