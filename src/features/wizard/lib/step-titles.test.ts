import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { addTranslations, translate, type Language } from '@/lib/i18n';
import { flowSchema } from '@/shared/flow';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import { stepTitle } from './step-titles';
import { buildSteps } from './steps';

beforeAll(() => addTranslations('wizard', { en, es, pt }));

const titles = (flowId: string, language: Language) => {
  const flow = flowSchema.parse(
    JSON.parse(readFileSync(`src/service/verification/flows/${flowId}.json`, 'utf8')),
  );
  const steps = buildSteps(flow);
  const t = (key: string, options?: Parameters<typeof translate>[3]) =>
    translate(language, 'wizard', key, options);
  return steps.map((step) => stepTitle(t, step, steps));
};

describe('stepTitle', () => {
  // Issue 35: global-passport named its proof of residency "Identity document 2".
  it('names a proof of residency by its type, and numbers identity documents only among themselves', () => {
    expect(titles('global-passport', 'en')).toEqual(['Identity document', 'Proof of address', 'Selfie']);
    expect(titles('global-passport', 'es').slice(0, 2)).toEqual([
      'Documento de identidad',
      es.documentTypes['proof-of-residency'],
    ]);
    expect(titles('global-passport', 'pt')[1]).toBe(pt.documentTypes['proof-of-residency']);
  });
});
