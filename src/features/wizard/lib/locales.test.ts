import { describe, expect, it } from 'vitest';
import { errorCodes } from '@/shared/error-codes';
import { clientCheckCodes } from '../checks/check-codes';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import type { RequestFailure } from './send-input';

const keysOf = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, child]) => keysOf(child, `${prefix}${key}.`))
    : [prefix.slice(0, -1)];

const lookup = (bundle: object, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], bundle);

const bundles = { en, es, pt };

describe('wizard strings', () => {
  it('have the same keys in English, Spanish and Portuguese, none empty', () => {
    const english = keysOf(en).sort();
    for (const [language, bundle] of Object.entries(bundles)) {
      expect(keysOf(bundle).sort(), language).toEqual(english);
      for (const key of english)
        expect(String(lookup(bundle, key)).trim(), `${language}:${key}`).not.toBe('');
    }
  });

  it('have a retake prompt (what went wrong, what to do) for every service and browser code', () => {
    for (const [language, bundle] of Object.entries(bundles)) {
      for (const code of [...errorCodes, ...clientCheckCodes]) {
        expect(lookup(bundle, `errors.${code}.what`), `${language}:${code}`).toEqual(expect.any(String));
        expect(lookup(bundle, `errors.${code}.todo`), `${language}:${code}`).toEqual(expect.any(String));
      }
    }
  });

  it('explain every request-level failure', () => {
    const failures: RequestFailure[] = [
      'integration',
      'tooBig',
      'format',
      'session',
      'locked',
      'storageFull',
      'unavailable',
      'network',
      'unknown',
    ];
    for (const bundle of Object.values(bundles)) {
      for (const failure of failures)
        expect(lookup(bundle, `requestErrors.${failure}.title`)).toEqual(expect.any(String));
    }
  });

  it('are not left in English in the other languages', () => {
    // Strings that are the same words in all three languages.
    const alike = new Set([
      'customDocument.pdfLabel',
      'preview.video',
      'fields.no',
      'steps.selfie',
      'checks.selfie',
      'fields.formatHint',
    ]);
    const untranslated = keysOf(en).filter(
      (key) =>
        !alike.has(key) && (lookup(es, key) === lookup(en, key) || lookup(pt, key) === lookup(en, key)),
    );
    expect(untranslated).toEqual([]);
  });

  it('send the person to the change-choice button by its name, not by a place on the screen', () => {
    // The prompt shows on the failures list, above the button on a retake, and below it when the
    // browser refuses the photo: "below" or "above" would be wrong somewhere.
    const places = /\b(below|above|abajo|arriba|abaixo|acima)\b/i;
    for (const [language, bundle] of Object.entries(bundles)) {
      const button = lookup(bundle, 'document.changeChoice') as string;
      for (const code of ['typeMismatch', 'countryMismatch']) {
        const todo = lookup(bundle, `errors.documentPhoto.${code}.todo`) as string;
        expect(todo, `${language}:${code}`).toContain(button);
        expect(todo, `${language}:${code}`).not.toMatch(places);
      }
    }
  });

  it('on the failures screen, promise "only these" only when nothing else goes again', () => {
    for (const [language, bundle] of Object.entries(bundles)) {
      const failures = lookup(bundle, 'failures') as Record<string, string>;
      for (const key of ['intro_one', 'intro_other', 'waiting_one', 'waiting_other'])
        expect(failures[key], `${language}:${key}`).not.toMatch(/(^|\s)(only|solo|só)\s/i);
      for (const key of ['onlyRetakes_one', 'onlyRetakes_other'])
        expect(failures[key], `${language}:${key}`).toMatch(/(^|\s)(only|solo|só)\s/i);
    }
  });
});
