import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadLanguage, NAMESPACES } from './catalogues';
import { bestLanguage, DEFAULT_LANGUAGE, directionOf, isLanguageCode, type LanguageCode } from './languages';

/** Where the visitor's choice is kept on this device. */
export const LANGUAGE_STORAGE_KEY = 'reelhouse.language';

export const i18n = i18next.createInstance();

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** The language to start in: the one chosen on this device before, else the browser's best match. */
export function initialLanguage(): LanguageCode {
  const saved = storage()?.getItem(LANGUAGE_STORAGE_KEY);
  if (isLanguageCode(saved)) return saved;
  return bestLanguage(typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : []);
}

function applyToDocument(language: LanguageCode) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

async function ensureLoaded(language: LanguageCode) {
  if (i18n.hasResourceBundle(language, 'common')) return;
  const catalogues = await loadLanguage(language);
  for (const [namespace, catalogue] of Object.entries(catalogues)) i18n.addResourceBundle(language, namespace, catalogue, true, true);
}

/** Starts the interface in `language`, its catalogues (and English's, the fallback) loaded first. */
export async function startI18n(language: LanguageCode = initialLanguage()): Promise<void> {
  await i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    ns: NAMESPACES,
    defaultNS: 'common',
    resources: {},
    partialBundledLanguages: true,
    // React escapes what it renders; escaping here too would show &amp; in the page.
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
  });
  await Promise.all([ensureLoaded(language), language === DEFAULT_LANGUAGE ? null : ensureLoaded(DEFAULT_LANGUAGE)]);
  await i18n.changeLanguage(language);
  applyToDocument(language);
}

/** Switches the interface to `language` and remembers the choice on this device. */
export async function changeLanguage(language: LanguageCode): Promise<void> {
  await ensureLoaded(language);
  await i18n.changeLanguage(language);
  applyToDocument(language);
  storage()?.setItem(LANGUAGE_STORAGE_KEY, language);
}

/** The interface's language now, as a shipped code. */
export function currentLanguage(): LanguageCode {
  return isLanguageCode(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
