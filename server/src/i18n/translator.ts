import { LANGUAGES, type Language } from '@reelhouse/contract';
import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LANGUAGE } from './languages.js';
import type { Catalogue } from './catalogue.js';
import ar from './locales/ar.js';
import de from './locales/de.js';
import en from './locales/en.js';
import es from './locales/es.js';
import fr from './locales/fr.js';
import ja from './locales/ja.js';
import ptBR from './locales/pt-BR.js';

/** Every language's words for what the server writes for people: mails, feeds, link previews. */
export const CATALOGUES: Record<Language, Catalogue> = { en, fr, es, de, 'pt-BR': ptBR, ja, ar };

const i18n = i18next.createInstance();
// Every catalogue is in the bundle, so initialising is synchronous: the instance is ready on import.
void i18n.init({
  resources: Object.fromEntries(LANGUAGES.map((code) => [code, { translation: CATALOGUES[code] }])),
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  initAsync: false,
  // Mails and pages escape what they put in HTML themselves; their plain-text parts must not be escaped.
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});

/** Words in one language: `t('mail.reset.subject')`, plurals by `count` under the language's own rules. */
export type Translate = TFunction;

/** The words of `language`, English when none is given. */
export function translator(language: Language | null | undefined): Translate {
  return i18n.getFixedT(language ?? DEFAULT_LANGUAGE);
}
