import { useTranslation, languages, setLanguage, type Language } from '@/lib/i18n';

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switcher">
      <span>{t('language')}</span>
      <select value={i18n.language} onChange={(event) => void setLanguage(event.target.value as Language)}>
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`languageNames.${language}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
