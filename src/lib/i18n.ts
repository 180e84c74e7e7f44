import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/lib/locales/en.json';
import es from '@/lib/locales/es.json';
import pt from '@/lib/locales/pt.json';

export const languages = ['en', 'es', 'pt'] as const;
export type Language = (typeof languages)[number];
const storageKey = 'idv.language';

const isLanguage = (value: string): value is Language => (languages as readonly string[]).includes(value);

function initialLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(storageKey);
  if (stored && isLanguage(stored)) return stored;
  for (const tag of globalThis.navigator?.languages ?? []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLanguage(base)) return base;
  }
  return 'en';
}

type BundleLoader = (language: Language) => Promise<object | { default: object }>;
const loaders = new Map<string, BundleLoader>();

// A backend that only knows the namespaces features registered: i18next then loads a feature's
// strings for the current language only, and react-i18next suspends until they are there.
const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders.get(namespace);
    if (!load || !isLanguage(language)) return callback(null, {});
    load(language).then(
      (bundle) => callback(null, ('default' in bundle ? bundle.default : bundle) as Record<string, unknown>),
      (error: unknown) => callback(error instanceof Error ? error.message : String(error), false),
    );
  },
};

void i18next
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    fallbackLng: 'en',
    supportedLngs: languages,
    defaultNS: 'common',
    ns: ['common'],
    partialBundledLanguages: true,
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

/**
 * Like addTranslations, but a namespace's bundle is fetched per language when first needed
 * (`useTranslation(namespace)` suspends meanwhile): for large bundles on the first screen.
 */
export function addTranslationLoader(namespace: string, load: BundleLoader) {
  loaders.set(namespace, load);
}

export { i18next };
