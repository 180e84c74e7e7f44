import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { addTranslations, setLanguage } from '@/lib/i18n';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import { verificationDataSchema } from '@/shared/contract/verification';
import { documentCheckErrorCodes, errorCodes } from '@/shared/error-codes';
import { toVerificationView } from '../lib/verification-view';
import { CreditCheckCard } from './credit-check-card';
import {
  BankSection,
  ComputedSection,
  DocumentsSection,
  EventsSection,
  InputsSection,
  StepsSection,
} from './verification-sections';
import { KeyValueList, MediaLinks } from './value-view';

beforeAll(async () => {
  addTranslations('console', { en, es, pt });
  await setLanguage('en');
});

const render = (node: React.ReactNode) => renderToStaticMarkup(node);
/** As on a verification's page: the media links the BFF listed for its data. */
const withMedia = (node: React.ReactNode) =>
  render(
    <MediaLinks.Provider value={new Set(['/api/staff/media/v1', '/api/staff/media/p1'])}>
      {node}
    </MediaLinks.Provider>,
  );

const data = verificationDataSchema.parse({
  id: 'ver-1',
  flow: { id: 'ar-national-id', name: 'Argentina' },
  identity: { status: 'reviewNeeded' },
  steps: [
    { id: 'liveness', status: 200, data: { videoUrl: '/api/staff/media/v1' }, error: null },
    {
      id: 'ip-validation',
      status: 200,
      data: { location: { country: 'AR', city: 'Rosario' }, isProxy: false },
    },
  ],
  documents: [
    {
      type: 'national-id',
      country: 'AR',
      photos: ['/api/staff/media/p1'],
      steps: [
        {
          id: 'watchlists',
          status: 200,
          error: { type: 'StepError', code: 'watchlists.match', message: 'On a list' },
        },
      ],
      fields: {
        fullName: { value: 'Ana Pérez', label: 'Full name' },
        dateOfBirth: { value: '1990-05-01', format: 'date' },
        expirationDate: { value: null },
      },
    },
  ],
  computed: { age: { data: 35 }, isDocumentExpired: { data: { 'national-id': true, passport: null } } },
  financialInformation: {
    bankStatement: {
      accounts: [{ institution: 'Banco X', currency: 'BRL' }],
      transactions: [{ date: '2026-01-01', amount: -20.5, description: 'purchase' }],
      current_balance: 1000,
      identity: { name: 'Ana Pérez' },
    },
  },
});

describe('verification sections', () => {
  const view = toVerificationView(data)!;

  it('shows steps with their media and data, readably', () => {
    const html = withMedia(<StepsSection steps={view.steps} />);
    expect(html).toContain('<h3>Liveness</h3>');
    expect(html).toMatch(/<video[^>]*src="\/api\/staff\/media\/v1"[^>]*aria-label="Video"/);
    expect(html).toContain('IP validation');
    expect(html).toContain('<dt>City</dt><dd>Rosario</dd>');
    expect(html).toContain('<dt>Proxy</dt><dd>No</dd>');
  });

  it('shows documents with photos, fields and check errors', () => {
    const html = withMedia(<DocumentsSection documents={view.documents} />);
    expect(html).toContain('National ID card · Argentina');
    expect(html).toContain('src="/api/staff/media/p1" alt="National ID card, photo 1 of 1"');
    expect(html).toContain('<dt>Full name</dt><dd>Ana Pérez</dd>');
    expect(html).toContain('<time dateTime="1990-05-01">May 1, 1990 (1990-05-01)</time>');
    expect(html).toContain('<dt>Expiration date</dt><dd><span class="muted">unknown</span></dd>');
    expect(html).toContain('Failed: On a list (watchlists.match)');
  });

  it('says which checks were not checked or not performed, never "Completed", in en, es and pt-BR', async () => {
    const honest = toVerificationView(
      verificationDataSchema.parse({
        ...data,
        steps: [
          {
            id: 'liveness',
            status: 200,
            data: {},
            error: {
              type: 'StepError',
              code: 'liveness.notChecked',
              message: 'the video was not checked: FFmpeg ran out of time',
            },
          },
          {
            id: 'template-matching',
            status: 200,
            data: { performed: false },
            error: { type: 'StepError', code: 'template-matching.notPerformed', message: 'no templates' },
          },
        ],
      }),
    )!;
    const expected = {
      en: [
        'Not checked — staff review needed',
        'Not performed: this service knows no template of this document type',
      ],
      es: [
        'Sin verificar — requiere revisión',
        'No realizado: este servicio no conoce plantillas de este tipo de documento',
      ],
      pt: [
        'Não verificado — requer revisão',
        'Não realizado: este serviço não conhece modelos deste tipo de documento',
      ],
    };
    try {
      for (const [language, [notChecked, notPerformed]] of Object.entries(expected)) {
        await setLanguage(language as keyof typeof expected);
        const html = render(<StepsSection steps={honest.steps} />);
        expect(html, language).toContain(notChecked);
        // The service's reason is shown to staff as it was given.
        expect(html, language).toContain('FFmpeg ran out of time');
        expect(html, language).toContain(notPerformed);
        expect(html, language).not.toMatch(/Completed|Completado|Conclu[íi]d[oa]|Performed/);
      }
    } finally {
      await setLanguage('en');
    }
  });

  it('shows computed values, with unknown for null', () => {
    const html = render(<ComputedSection view={view} />);
    expect(html).toContain('35 years');
    expect(html).toContain('National ID card expired</dt><dd><span class="error">Expired</span>');
    expect(html).toContain('Passport expired</dt><dd><span class="muted">unknown</span>');
  });

  it('shows bank data in captioned tables', () => {
    const html = render(<BankSection bank={view.bank!} />);
    expect(html).toMatch(/<caption[^>]*>Transactions of the bank statement<\/caption>/);
    expect(html).toContain('<th scope="col">Description</th>');
    // Sums of money in the statement's currency, in the page's language.
    expect(html).toContain('<td class="number">-R$20.50</td>');
    expect(html).toContain('<dt>Current balance</dt><dd>R$1,000.00</dd>');
    expect(html).toContain('<dt>Available balance</dt><dd><span class="muted">unknown</span></dd>');
  });

  it('shows webhook events with their signature verdict', () => {
    const html = render(
      <EventsSection
        events={[
          {
            id: '1',
            kind: 'verification',
            eventName: 'step_completed',
            receivedAt: '2026-01-01T00:00:00Z',
            signatureValid: true,
            body: {},
          },
          {
            id: '2',
            kind: 'verification',
            eventName: 'odd_event',
            receivedAt: '2026-01-01T00:00:01Z',
            signatureValid: false,
            body: {},
          },
        ]}
      />,
    );
    expect(html).toContain('Step completed');
    expect(html).toContain('Valid signature');
    expect(html).toContain('odd_event');
    expect(html).toContain('Invalid signature');
  });

  it('renders an empty verification without failing', () => {
    const empty = toVerificationView({
      id: 'ver-2',
      flow: { id: 'f', name: 'F' },
      identity: { status: 'pending' },
      steps: [],
      documents: [],
    })!;
    const html = render(
      <>
        <StepsSection steps={empty.steps} />
        <DocumentsSection documents={empty.documents} />
        <ComputedSection view={empty} />
      </>,
    );
    expect(html).toContain('No steps.');
    expect(html).toContain('No documents.');
    expect(html).toContain('<dt>Age</dt><dd><span class="muted">unknown</span></dd>');
  });

  it('shows a credit-check result, unknown keys included, in Spanish too', async () => {
    const record = {
      id: 'c1',
      country: 'br' as const,
      request: { cpf: '123.456.789-09' },
      status: 'completed' as const,
      result: { name: 'Ana', score: 712, debts: [{ creditor: 'Banco Y', amount: 300 }], synthetic: true },
      error: null,
      createdAt: '2026-01-01T00:00:00Z',
      completedAt: '2026-01-01T00:00:02Z',
    };
    const html = render(<CreditCheckCard record={record} />);
    expect(html).toContain('Brazil: CPF 123.456.789-09');
    expect(html).toContain('<dt>Score</dt><dd>712 / 900</dd>');
    expect(html).toMatch(/<caption[^>]*>Debts<\/caption>/);
    expect(html).toContain('<dt>Demo answer (no real source)</dt><dd>Yes</dd>');
    const pending = render(
      <CreditCheckCard record={{ ...record, status: 'pending', result: null, completedAt: null }} />,
    );
    expect(pending).toContain('Pending');
    expect(pending).toContain('Waiting for the bureau');
    const failed = render(
      <CreditCheckCard record={{ ...record, status: 'failed', result: null, error: 'Bureau unreachable' }} />,
    );
    expect(failed).toContain('Failed');
    expect(failed).toContain('Error: Bureau unreachable');
    const folded = render(<CreditCheckCard record={record} folded />);
    expect(folded).toContain('<details class="result"><summary>Result</summary>');
    await setLanguage('es');
    expect(render(<CreditCheckCard record={record} />)).toContain('Brasil: CPF');
    await setLanguage('en');
  });
});

describe('inputs, scores and labels', () => {
  it('shows each input with why it is pending, in words, in English and Spanish', async () => {
    await setLanguage('en');
    const inputs = [
      {
        input: 'document-photo' as const,
        group: 0,
        documentType: 'national-id',
        state: 'waitingForBack' as const,
      },
      { input: 'selfie-photo' as const, state: 'refused' as const, code: 'selfiePhoto.sunGlasses' },
      { input: 'custom-fields' as const, state: 'notSent' as const },
      { input: 'selfie-video' as const, state: 'failed' as const, code: 'no.suchCode' },
    ];
    const html = render(<InputsSection inputs={inputs} />);
    expect(html).toMatch(/<caption[^>]*>Each input of the verification and where it stands<\/caption>/);
    expect(html).toContain('<th scope="row">Identity document: National ID card</th>');
    expect(html).toContain('Waiting for the back side.');
    expect(html).toContain('Sunglasses detected on the selfie. Waiting for the person to take it again.');
    expect(html).toContain('The person has not sent it yet.');
    expect(html).toContain('Error code no.suchCode. A check failed.');
    expect(render(<InputsSection inputs={[]} />)).toBe('');
    await setLanguage('es');
    const es = render(<InputsSection inputs={inputs} />);
    expect(es).toContain('Esperando el reverso.');
    expect(es).not.toContain('sunglasses');
    await setLanguage('en');
  });

  // Issue 35 item 5: a Verified verification said "Identity document: Failed – this service has no
  // alteration detection. A check failed." and the Selfie row "Every check passed" beside a face
  // mismatch.
  it('a check not performed is "Not performed", never Failed; a face mismatch under the selfie; en, es, pt', async () => {
    const inputs = [
      {
        input: 'document-photo' as const,
        group: 0,
        documentType: 'national-id',
        state: 'checked' as const,
        notPerformed: ['alteration-detection', 'watchlists'],
      },
      { input: 'selfie-photo' as const, state: 'failed' as const, code: 'facematch.mismatch' },
      { input: 'selfie-video' as const, state: 'failed' as const, code: 'liveness.notChecked' },
    ];
    const expected = {
      en: [
        'Every check performed passed.',
        'Not performed (this service has no such check): Alteration detection and Watch lists.',
        'Selfie does not match the document portrait. A check failed.',
        'Liveness could not be checked: staff review needed. A check failed.',
      ],
      es: [
        'Pasó todas las verificaciones realizadas.',
        'No realizado (este servicio no tiene esa verificación):',
        'Prueba de vida: no se pudo verificar; requiere revisión.',
      ],
      pt: [
        'Passou em todas as verificações realizadas.',
        'Não realizado (este serviço não tem essa verificação):',
        'não foi possível verificar; requer revisão.',
      ],
    };
    for (const [language, texts] of Object.entries(expected)) {
      await setLanguage(language as keyof typeof expected);
      const html = render(<InputsSection inputs={inputs} />);
      for (const text of texts) expect(html, language).toContain(text);
      // Never the service's lower-case reason, never "Failed" for the document.
      expect(html, language).not.toMatch(
        /no alteration detection|could not be computed|input-reason[^"]*">[a-z]/,
      );
      expect(html.match(/input-failed/g), language).toHaveLength(2);
    }
    await setLanguage('en');
  });

  it('a failed face match shows its pass mark beside its score', async () => {
    await setLanguage('en');
    const steps = [
      {
        id: 'facematch',
        status: 200 as const,
        data: { score: 82.57, passMark: 84.16 },
        error: { type: 'StepError', code: 'facematch.mismatch', message: 'the selfie does not match' },
      },
    ];
    const html = render(<StepsSection steps={steps} />);
    expect(html).toContain('Failed: Selfie does not match the document portrait.');
    expect(html).toContain(
      '<dt>Score</dt><dd>82.6%</dd></div><div class="kv-row"><dt>Pass mark</dt><dd>84.16%</dd>',
    );
    await setLanguage('es');
    expect(render(<StepsSection steps={steps} />)).toContain('<dt>Mínimo para aprobar</dt><dd>84,16');
    await setLanguage('pt');
    expect(render(<StepsSection steps={steps} />)).toContain('<dt>Mínimo para aprovar</dt><dd>84,16');
    await setLanguage('en');
  });

  it('names the issue date and the selfie photo in words (issue 35: "Emission date", "Selfie photo url")', async () => {
    await setLanguage('en');
    const steps = [{ id: 'selfie', status: 200 as const, data: { selfiePhotoUrl: '/api/staff/media/p1' } }];
    expect(withMedia(<StepsSection steps={steps} />)).toContain('<dt>Selfie photo</dt>');
    const withIssueDate = toVerificationView(
      verificationDataSchema.parse({
        ...data,
        documents: [
          { ...data.documents[0], fields: { emissionDate: { value: '2020-01-02', format: 'date' } } },
        ],
      }),
    )!;
    const html = render(<DocumentsSection documents={withIssueDate.documents} />);
    expect(html).toContain('Issue date');
    expect(html).not.toContain('Emission');
  });

  it("has a short staff text for every send-input and document-check code in each language, never the person's wording", () => {
    const you = { en: /\byou(r)?\b/i, es: /\b(tu|tus|usted)\b/i, pt: /\b(você|seu|sua)\b/i };
    for (const [language, strings] of Object.entries({ en, es, pt })) {
      const texts = strings.errorCodes as Record<string, Record<string, string>>;
      for (const code of [...errorCodes, ...documentCheckErrorCodes]) {
        const [family, key] = [code.slice(0, code.indexOf('.')), code.slice(code.indexOf('.') + 1)];
        const text = texts[family]?.[key];
        expect(text, `${language} ${code}`).toBeTruthy();
        expect(text.length, `${language} ${code}`).toBeLessThanOrEqual(60);
        expect(text, `${language} ${code}`).not.toMatch(you[language as keyof typeof you]);
      }
    }
  });

  it('a face match as a percentage, an IP address by its name, no raw keys', async () => {
    await setLanguage('en');
    const steps = [
      { id: 'facematch', status: 200 as const, data: { score: 82.57 } },
      { id: 'ip-validation', status: 200 as const, data: { ip: '127.0.0.1', isLocal: true } },
      {
        id: 'facematch',
        status: 200 as const,
        error: { type: 'StepError', code: 'facematch.mismatch', message: 'the selfie does not match' },
      },
    ];
    const html = render(<StepsSection steps={steps} />);
    expect(html).toContain('<dt>Score</dt><dd>82.6%</dd>');
    expect(html).toContain('<dt>IP address</dt><dd>127.0.0.1</dd>');
    expect(html).toContain('Failed: Selfie does not match the document portrait. (facematch.mismatch)');
    expect(html).not.toMatch(/<dt>Ip<\/dt>/);
    await setLanguage('pt');
    expect(render(<StepsSection steps={steps} />)).toContain('<dt>Endereço IP</dt>');
    await setLanguage('en');
  });
});

describe('value view', () => {
  it('shows times, field-shaped records and media readably', () => {
    const html = render(
      <MediaLinks.Provider value={new Set(['/api/staff/media/m1'])}>
        <KeyValueList
          data={{
            checkedAt: '2026-01-02T03:04:05Z',
            curp: { value: 'MUEM900215MDFSJR08', label: 'CURP' },
            selfieMedia: '/api/staff/media/m1',
            tags: ['a', null],
            empty: [],
          }}
        />
      </MediaLinks.Provider>,
    );
    expect(html).toMatch(/<time dateTime="2026-01-02T03:04:05Z">[^<]*2026[^<]*<\/time>/);
    expect(html).toContain('<dt>CURP</dt><dd>MUEM900215MDFSJR08</dd>');
    expect(html).toContain('<img class="media" src="/api/staff/media/m1" alt="Selfie media"/>');
    expect(html).toContain('<dd>a, unknown</dd>');
    expect(html).toContain('<dt>Empty</dt><dd><span class="muted">None</span></dd>');
  });

  it('fetches as media only what the BFF made a media link, not a value that looks like one', () => {
    const html = render(
      <MediaLinks.Provider value={new Set(['/api/staff/media/m1'])}>
        <KeyValueList
          data={{
            avatar: '/api/staff/media/m2',
            trick: '/api/staff/media/../logout',
            real: '/api/staff/media/m1',
          }}
        />
      </MediaLinks.Provider>,
    );
    expect(html).toContain('<dt>Avatar</dt><dd>/api/staff/media/m2</dd>');
    expect(html).toContain('<dt>Trick</dt><dd>/api/staff/media/../logout</dd>');
    expect(html).toContain('src="/api/staff/media/m1"');
    expect(html).not.toContain('src="/api/staff/media/m2"');
    // Outside a verification's page (no list), nothing is media.
    expect(render(<KeyValueList data={{ a: '/api/staff/media/m1' }} />)).not.toContain('<img');
  });
});
