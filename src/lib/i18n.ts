import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/app/locales/en.json';
import es from '@/app/locales/es.json';
import pt from '@/app/locales/pt.json';

export const languages = ['en', 'es', 'pt'] as const;
export type Language = (typeof languages)[number];
const storageKey = 'idv.language';

function initialLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(storageKey);
  if (stored && (languages as readonly string[]).includes(stored)) return stored as Language;
  for (const tag of globalThis.navigator?.languages ?? []) {
    const base = tag.slice(0, 2).toLowerCase();
    if ((languages as readonly string[]).includes(base)) return base as Language;
  }
  return 'en';
}

void i18next.use(initReactI18next).init({
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: languages,
  defaultNS: 'common',
  ns: ['common'],
  resources: { en: { common: en }, es: { common: es }, pt: { common: pt } },
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = i18next.language;

export function setLanguage(language: Language) {
  localStorage.setItem(storageKey, language);
  document.documentElement.lang = language;
  return i18next.changeLanguage(language);
}

/**
 * Features ship their own strings per language and register them when their code loads, so the
 * first screen does not carry the strings of screens it does not show.
 */
export function addTranslations(namespace: string, bundles: Record<Language, object>) {
  for (const language of languages) {
    if (!i18next.hasResourceBundle(language, namespace)) {
      i18next.addResourceBundle(language, namespace, bundles[language], true, true);
    }
  }
}

export { i18next };
