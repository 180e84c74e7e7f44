import { addTranslationLoader, type Language } from '@/lib/i18n';

// The wizard's strings (with every retake prompt) load for the current language only.
const bundles: Record<Language, () => Promise<{ default: object }>> = {
  en: () => import('../locales/en.json'),
  es: () => import('../locales/es.json'),
  pt: () => import('../locales/pt.json'),
};
addTranslationLoader('wizard', (language) => bundles[language]());
