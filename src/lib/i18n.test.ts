import { describe, expect, it } from 'vitest';
import { addTranslationLoader, addTranslations, setLanguage, translate } from './i18n';

addTranslations('test', {
  en: {
    greeting: 'Hello {{name}}',
    files: { count_one: '{{count}} file', count_other: '{{count}} files' },
    only: 'English only',
  },
  es: {
    greeting: 'Hola {{name}}',
    files: { count_one: '{{count}} archivo', count_other: '{{count}} archivos' },
  },
  pt: {
    greeting: 'Olá {{name}}',
    files: { count_one: '{{count}} arquivo', count_other: '{{count}} arquivos' },
  },
});

describe('translate', () => {
  it('reads nested keys, fills values and picks the plural form of the language', () => {
    expect(translate('es', 'test', 'greeting', { name: 'Ana' })).toBe('Hola Ana');
    expect(translate('en', 'test', 'files.count', { count: 1 })).toBe('1 file');
    expect(translate('pt', 'test', 'files.count', { count: 3 })).toBe('3 arquivos');
    // Spanish has a "many" form for a million; without its key, "other" answers.
    expect(translate('es', 'test', 'files.count', { count: 1_000_000 })).toBe('1000000 archivos');
  });

  it('falls back to English, then to the default value, then to the key', () => {
    expect(translate('pt', 'test', 'only')).toBe('English only');
    expect(translate('es', 'test', 'missing', { defaultValue: 'Default' })).toBe('Default');
    expect(translate('es', 'test', 'missing.key')).toBe('missing.key');
  });

  it('loads a lazily registered namespace for the language switched to', async () => {
    const loaded: string[] = [];
    addTranslationLoader('lazy', async (language) => {
      loaded.push(language);
      return { default: { term: language === 'es' ? 'palabra' : 'word' } };
    });
    // Not in use yet: nothing is fetched on a switch.
    await setLanguage('es');
    expect(loaded).toEqual([]);
    expect(translate('es', 'lazy', 'term')).toBe('term');
  });
});
