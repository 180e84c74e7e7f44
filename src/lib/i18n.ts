import { useMemo, useSyncExternalStore } from 'react';
import en from '@/lib/locales/en.json';
import es from '@/lib/locales/es.json';
import pt from '@/lib/locales/pt.json';
import { fallbackLanguage, isLanguage, languages, pickLanguage, type Language } from '@/shared/languages';

// The app's own translation layer: the small part of i18next it used (namespaces, nested keys,
// {{name}} values, plurals by Intl.PluralRules, a default value, English as the fallback, bundles
// loaded per language with Suspense), in about 1 kB instead of i18next's 15 kB + react-i18next's 3 kB
// on the first screen (the first screen's budget is 80 kB; React alone takes 61).

export { languages, type Language } from '@/shared/languages';
const defaultNamespace = 'common';
const storageKey = 'idv.language';

function initialLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(storageKey);
  if (stored && isLanguage(stored)) return stored;
  return pickLanguage(globalThis.navigator?.languages ?? []) ?? fallbackLanguage;
}

type Bundle = { [key: string]: unknown };
type BundleLoader = (language: Language) => Promise<object | { default: object }>;

/** Options of `t`: values for `{{name}}`, `count` (chooses the plural form too), `defaultValue`. */
export type TOptions = { count?: number; defaultValue?: string } & Record<string, unknown>;
/** A translate function bound to a language and a namespace. */
export type TFunction = (key: string, options?: TOptions) => string;

const bundles = new Map<string, Bundle>(); // `${language}/${namespace}`
const loaders = new Map<string, BundleLoader>();
const loading = new Map<string, Promise<void>>();
const failed = new Set<string>();
const usedNamespaces = new Set<string>([defaultNamespace]);
const listeners = new Set<() => void>();
let current: Language = initialLanguage();

const bundleKey = (language: Language, namespace: string) => `${language}/${namespace}`;
for (const [language, strings] of [
  ['en', en],
  ['es', es],
  ['pt', pt],
] as const)
  bundles.set(bundleKey(language, defaultNamespace), strings);
if (globalThis.document) document.documentElement.lang = current;

const isLoaded = (language: Language, namespace: string) =>
  bundles.has(bundleKey(language, namespace)) ||
  failed.has(bundleKey(language, namespace)) ||
  !loaders.has(namespace);

/** Loads a namespace's bundle for a language once (features registered how, with addTranslationLoader). */
function load(language: Language, namespace: string): Promise<void> {
  const key = bundleKey(language, namespace);
  const loader = loaders.get(namespace);
  if (bundles.has(key) || !loader) return Promise.resolve();
  failed.delete(key);
  let promise = loading.get(key);
  if (!promise) {
    promise = loader(language).then(
      (bundle) => {
        bundles.set(key, ('default' in bundle ? bundle.default : bundle) as Bundle);
        loading.delete(key);
      },
      (error: unknown) => {
        // Shown in English (or by key) rather than suspending forever; the next language switch retries.
        console.warn(`translations ${key} could not load`, error);
        loading.delete(key);
        failed.add(key);
      },
    );
    loading.set(key, promise);
  }
  return promise;
}

function lookup(bundle: Bundle | undefined, key: string): string | undefined {
  let node: unknown = bundle;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Bundle)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const pluralRules = new Map<Language, Intl.PluralRules>();
const pluralForm = (language: Language, count: number) => {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
};

function find(language: Language, namespace: string, key: string, count: number | undefined) {
  const bundle = bundles.get(bundleKey(language, namespace));
  if (typeof count === 'number') {
    const plural = lookup(bundle, `${key}_${pluralForm(language, count)}`) ?? lookup(bundle, `${key}_other`);
    if (plural !== undefined) return plural;
  }
  return lookup(bundle, key);
}

const interpolate = (text: string, values: TOptions) =>
  text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? '' : String(value);
  });

/** Translates `key` of `namespace` in `language`, falling back to English, then to the default value or the key. */
export function translate(language: Language, namespace: string, key: string, options: TOptions = {}) {
  const text =
    find(language, namespace, key, options.count) ??
    (language === fallbackLanguage ? undefined : find(fallbackLanguage, namespace, key, options.count)) ??
    options.defaultValue ??
    key;
  return text.includes('{{') ? interpolate(text, options) : text;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const currentLanguage = () => current;

/**
 * The `t` of a namespace in the current language, and the language; re-renders when the language
 * changes. Suspends while a lazily loaded namespace's bundle is on its way.
 */
export function useTranslation(namespace: string = defaultNamespace) {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  usedNamespaces.add(namespace);
  if (!isLoaded(language, namespace)) throw load(language, namespace);
  const t = useMemo<TFunction>(
    () => (key, options) => translate(language, namespace, key, options),
    [language, namespace],
  );
  return { t, i18n: { language } };
}

/** Switches the language once the bundles in use are there in it, and remembers the choice. */
export async function setLanguage(language: Language) {
  globalThis.localStorage?.setItem(storageKey, language);
  await Promise.all([...usedNamespaces].map((namespace) => load(language, namespace)));
  current = language;
  if (globalThis.document) document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

/**
 * Features ship their own strings per language and register them when their code loads, so the
 * first screen does not carry the strings of screens it does not show.
 */
export function addTranslations(namespace: string, strings: Record<Language, object>) {
  for (const language of languages) {
    const key = bundleKey(language, namespace);
    if (!bundles.has(key)) bundles.set(key, strings[language] as Bundle);
  }
}

/**
 * Like addTranslations, but a namespace's bundle is fetched per language when first needed
 * (`useTranslation(namespace)` suspends meanwhile): for large bundles on the first screen.
 */
export function addTranslationLoader(namespace: string, loader: BundleLoader) {
  loaders.set(namespace, loader);
}
