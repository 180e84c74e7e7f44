import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTranslations, setLanguage, translate } from '@/lib/i18n';
import type { ReviewRecord } from '@/shared/contract/bff-api';
import { reviewDecisions } from '@/shared/contract/verification';
import { flowSchema } from '@/shared/flow';
import { defaultReviewReasons } from '@/shared/review-reasons';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import { reasonOptions } from '../lib/review-reasons';
import { ReviewHistory } from './review-history';

const brBank = flowSchema.parse(
  JSON.parse(readFileSync('src/service/verification/flows/br-bank.json', 'utf8')),
);

beforeAll(async () => {
  addTranslations('console', { en, es, pt });
});
afterAll(async () => {
  await setLanguage('en');
});

const review = (over: Partial<ReviewRecord>): ReviewRecord => ({
  id: 'r',
  decision: 'rejected',
  reason: 'faceMismatch',
  note: null,
  reviewer: 'staff-0a1b2c3d',
  byYou: false,
  decidedAt: '2026-03-01T10:00:00.000Z',
  ...over,
});

describe('review reasons and history', () => {
  it('labels every default reason in every language, none falling back to its code', async () => {
    for (const [language, strings] of [
      ['en', en],
      ['es', es],
      ['pt', pt],
    ] as const) {
      const labels = strings.review.reasons as Record<string, string>;
      for (const decision of reviewDecisions)
        for (const code of defaultReviewReasons[decision])
          expect(labels[code], `${language} ${code}`).toBeTruthy();
    }
  });

  it("offers the flow's own reasons in the page's language, the default set for other decisions", async () => {
    await setLanguage('es');
    const t = (key: string, options?: Record<string, unknown>) => translate('es', 'console', key, options);
    expect(reasonOptions(t, brBank, 'es', 'rejected').map((o) => o.label)).toEqual([
      'Ingresos no comprobados por el extracto',
      'Extracto bancario alterado',
      'La cara no coincide con el documento',
      'Otro (explica el motivo en la nota)',
    ]);
    expect(reasonOptions(t, brBank, 'es', 'verified')[0]).toEqual({
      code: 'checksPassed',
      label: 'Todas las comprobaciones pasaron',
    });
    expect(reasonOptions(t, undefined, 'es', 'rejected').map((o) => o.code)).toEqual([
      ...defaultReviewReasons.rejected,
    ]);
  });

  it('shows who, when, the decision, the reason and the note, in the order given', async () => {
    await setLanguage('en');
    const html = renderToStaticMarkup(
      <ReviewHistory
        flow={brBank}
        reviews={[
          review({ id: 'r2', decision: 'verified', reason: 'checkWasWrong', byYou: true }),
          review({ id: 'r1', reason: 'income-not-proven', note: 'Salary <b>not</b> on it' }),
        ]}
      />,
    );
    expect(html).toContain('<h2 id="detail-review-history">Decision history</h2>');
    expect(html.indexOf('Verified')).toBeLessThan(html.indexOf('Rejected'));
    expect(html).toContain('By you (staff-0a1b2c3d)');
    expect(html).toContain('By staff-0a1b2c3d');
    expect(html).toContain('<dd>A failed check was wrong on inspection</dd>');
    expect(html).toContain('<dd>Income not proven by the statement</dd>');
    expect(html).toContain('<dd>Salary &lt;b&gt;not&lt;/b&gt; on it</dd>');
    expect(html).toContain('<time dateTime="2026-03-01T10:00:00.000Z">');
    expect(renderToStaticMarkup(<ReviewHistory flow={undefined} reviews={[]} />)).toContain(
      'No staff decision yet.',
    );
  });
});
