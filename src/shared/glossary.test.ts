import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Gender,
  type GlossaryLanguage,
  glossaries,
  glossaryDocumentTypes,
  inSentence,
  properNouns,
} from './glossary';

const src = fileURLToPath(new URL('..', import.meta.url));
const languages: GlossaryLanguage[] = ['en', 'es', 'pt'];

type Messages = [key: string, text: string][];
const messagesOf = (value: unknown, prefix = ''): Messages =>
  value && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, child]) => messagesOf(child, `${prefix}${key}.`))
    : typeof value === 'string'
      ? [[prefix.slice(0, -1), value]]
      : [];

/** Every locale file under src (`locales/en.json`, `locales/capture.es.json`, …), by bundle. */
function localeBundles(): Map<string, Partial<Record<GlossaryLanguage, Messages>>> {
  const bundles = new Map<string, Partial<Record<GlossaryLanguage, Messages>>>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      const match = /^(?:(.+)\.)?(en|es|pt)\.json$/.exec(entry.name);
      if (entry.isFile() && match && dir.endsWith('locales')) {
        const bundle = relative(src, join(dir, match[1] ?? ''));
        const messages = messagesOf(JSON.parse(readFileSync(path, 'utf8')));
        bundles.set(bundle, { ...bundles.get(bundle), [match[2]]: messages });
      }
    }
  };
  walk(src);
  return bundles;
}

/** The texts of every flow in each language: `translations` (es, pt) and the flow itself (en). */
function flowTexts(): { file: string; language: GlossaryLanguage; messages: Messages }[] {
  const dir = join(src, 'service/verification/flows');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const flow = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
        translations?: Partial<Record<GlossaryLanguage, unknown>>;
      };
      return Object.entries(flow.translations ?? {}).map(([language, texts]) => ({
        file: `flows/${name}`,
        language: language as GlossaryLanguage,
        messages: messagesOf(texts),
      }));
    });
}

const letters = '\\p{L}\\p{N}';
const wholeWords = (words: string, flags = 'giu') =>
  new RegExp(`(?<![${letters}])(?:${words})(?![${letters}])`, flags);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const capitalise = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/** Whether text[index] starts a sentence or a label (after ". ", ": ", "(", "«", "“", …). */
const startsSentence = (text: string, index: number) =>
  /(^|[.!?:…¿¡(«“"·]|\n)\s*$/u.test(text.slice(0, index));

/** Determiners that agree with the noun after them; the others (es "tu", "mi") do not vary. */
const determiners: Record<'es' | 'pt', Record<Gender, string[]>> = {
  es: {
    masculine: ['el', 'del', 'al', 'un', 'este', 'ese', 'otro', 'ningún'],
    feminine: ['la', 'una', 'esta', 'esa', 'otra', 'ninguna'],
  },
  pt: {
    masculine: [
      'o',
      'do',
      'no',
      'ao',
      'pelo',
      'um',
      'seu',
      'teu',
      'meu',
      'este',
      'esse',
      'deste',
      'desse',
      'neste',
      'nesse',
      'outro',
    ],
    feminine: [
      'a',
      'da',
      'na',
      'à',
      'pela',
      'uma',
      'sua',
      'tua',
      'minha',
      'esta',
      'essa',
      'desta',
      'dessa',
      'nesta',
      'nessa',
      'outra',
    ],
  },
};

/** What is wrong with one message of a language, as "key: problem" lines. */
function problems(language: GlossaryLanguage, key: string, text: string): string[] {
  const glossary = glossaries[language];
  const found: string[] = [];
  const terms = [...Object.values(glossary.terms), ...Object.values(glossary.documents)];
  for (const term of terms) {
    for (const avoided of term.avoid) {
      for (const match of text.matchAll(wholeWords(avoided.words)))
        found.push(`${key}: "${match[0]}" — use "${term.use}" (${avoided.why})`);
    }
  }
  for (const { use } of Object.values(glossary.documents)) {
    for (const match of text.matchAll(wholeWords(escape(use)))) {
      const initial = match[0].charAt(0);
      if (initial !== initial.toLocaleLowerCase() && !startsSentence(text, match.index))
        found.push(`${key}: "${match[0]}" capitalised mid-sentence — write "${use}"`);
    }
  }
  if (language === 'es' || language === 'pt') {
    const sets = determiners[language];
    for (const term of terms) {
      if (!term.gender) continue;
      const other = term.gender === 'masculine' ? sets.feminine : sets.masculine;
      const pattern = wholeWords(`(?:${other.join('|')})\\s+${escape(term.use)}`);
      for (const match of text.matchAll(pattern))
        found.push(`${key}: "${match[0]}" — "${term.use}" is ${term.gender}`);
    }
    const any = [...sets.masculine, ...sets.feminine].join('|');
    for (const match of text.matchAll(wholeWords(`(?:${any})\\s+\\{\\{document\\}\\}`)))
      found.push(
        `${key}: "${match[0]}" — the document's gender varies: ${language === 'pt' ? '"seu documento ({{document}})"' : '"tu {{document}}"'}`,
      );
  }
  return found;
}

/** A message with {{document}} as people read it, once per document name of the language. */
function rendered(language: GlossaryLanguage, text: string): string[] {
  if (!text.includes('{{document}}')) return [];
  return Object.values(glossaries[language].documents).map(({ use }) =>
    text.replace(/\{\{document\}\}/g, (_, index: number) =>
      startsSentence(text, index) ? capitalise(use) : inSentence(capitalise(use)),
    ),
  );
}

describe('the glossary', () => {
  it('catches avoided terms, document names capitalised mid-sentence and possessives of the wrong gender', () => {
    expect(problems('pt', 'k', 'Seu Carteira de identidade')).toEqual([
      'k: "Carteira de identidade" capitalised mid-sentence — write "carteira de identidade"',
      'k: "Seu Carteira de identidade" — "carteira de identidade" is feminine',
    ]);
    expect(problems('pt', 'k', 'Sua carteira de identidade e seu passaporte')).toEqual([]);
    expect(problems('pt', 'k', 'Tirada com a câmera')[0]).toMatch(/^k: "Tirada com a câmera" — use "tirar/);
    expect(problems('pt', 'k', 'Seu {{document}}')[0]).toMatch(/gender varies/);
    expect(problems('es', 'k', 'Toma la selfi de nuevo')[0]).toMatch(/^k: "selfi" — use "selfie"/);
    expect(problems('es', 'k', 'Quítate las gafas y coge el móvil')).toHaveLength(3);
    expect(problems('es', 'k', 'Subid el fichero y esperáis')).toHaveLength(2);
    expect(problems('es', 'k', 'Frente de tu Pasaporte')[0]).toMatch(/capitalised mid-sentence/);
    expect(problems('es', 'k', 'Pasaporte: frente. Licencia de conducir (México)')).toEqual([]);
    expect(problems('en', 'k', 'Front of your National ID card')[0]).toMatch(/capitalised mid-sentence/);
    expect(titleCased('k', 'Documento Nacional de Identidad')).toHaveLength(2);
    expect(titleCased('k', 'Constancia de situación fiscal (RFC)')).toEqual([]);
  });

  it('writes document names lower case inside a sentence, acronyms kept', () => {
    expect(inSentence('National ID card')).toBe('national ID card');
    expect(inSentence('Carteira de identidade')).toBe('carteira de identidade');
    expect(inSentence('INE')).toBe('INE');
    expect(inSentence('Comprobante de ingresos (PDF)')).toBe('comprobante de ingresos (PDF)');
    for (const noun of properNouns) expect(inSentence(noun)).toBe(noun);
  });

  it('names each document type in every locale as the glossary does', () => {
    for (const [bundle, byLanguage] of localeBundles()) {
      for (const language of languages) {
        const messages = new Map(byLanguage[language] ?? []);
        for (const type of glossaryDocumentTypes) {
          const label = messages.get(`documentTypes.${type}`);
          if (label !== undefined)
            expect(label, `${bundle}/${language}: documentTypes.${type}`).toBe(
              capitalise(glossaries[language].documents[type].use),
            );
        }
      }
    }
  });
});

/** A document name's words after the first are lower case, but for proper nouns and acronyms. */
function titleCased(key: string, name: string): string[] {
  return name
    .split(/\s+/)
    .slice(1)
    .filter((word) => /^\p{Lu}\p{Ll}/u.test(word.replace(/^\(/, '')) && !properNouns.includes(word))
    .map((word) => `${key}: "${word}" in the document name "${name}" — lower case after the first word`);
}
const isDocumentName = (key: string) => /(^|\.)(documentTypes|documents)\.[^.]+$/.test(key);

describe('every locale', () => {
  const bundles = localeBundles();

  it('is found: the wizard, its camera parts, the console and the shell', () => {
    expect([...bundles.keys()].sort()).toEqual(
      expect.arrayContaining([
        'features/console/locales',
        'features/wizard/locales',
        'features/wizard/locales/capture',
        'lib/locales',
      ]),
    );
  });

  it('has every English key in Spanish and Portuguese', () => {
    const missing: string[] = [];
    for (const [bundle, byLanguage] of bundles) {
      const english = (byLanguage.en ?? []).map(([key]) => key);
      for (const language of ['es', 'pt'] as const) {
        const keys = new Set((byLanguage[language] ?? []).map(([key]) => key));
        for (const key of english) if (!keys.has(key)) missing.push(`${bundle}/${language}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('uses the terms of its language’s glossary in every message, as written and as rendered', () => {
    const found: string[] = [];
    for (const [bundle, byLanguage] of bundles) {
      for (const language of languages) {
        for (const [key, text] of byLanguage[language] ?? []) {
          const where = `${bundle}/${language}.json ${key}`;
          found.push(...problems(language, where, text));
          if (isDocumentName(key)) found.push(...titleCased(where, text));
          for (const text2 of rendered(language, text))
            found.push(...problems(language, `${where} (rendered "${text2}")`, text2));
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('and every flow’s translations use them too', () => {
    const found: string[] = [];
    for (const { file, language, messages } of flowTexts())
      for (const [key, text] of messages) {
        found.push(...problems(language, `${file} ${language}.${key}`, text));
        if (isDocumentName(key)) found.push(...titleCased(`${file} ${language}.${key}`, text));
      }
    expect(found).toEqual([]);
  });
});
