import { useTranslation } from 'react-i18next';
import { useChooseLanguage } from './account-language';
import { isLanguageCode, LANGUAGES } from './languages';

/** The account settings' language choice: the same as the top bar's menu, as a labelled select. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  const chooseLanguage = useChooseLanguage();
  return (
    <label className="flex flex-col gap-1 text-sm font-medium">
      {t('language')}
      <select
        value={i18n.language}
        onChange={(e) => {
          if (isLanguageCode(e.target.value)) void chooseLanguage(e.target.value);
        }}
        className="rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm font-normal dark:border-neutral-700 dark:bg-neutral-900"
        data-testid="language-select"
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </label>
  );
}
