/** The languages the interface ships in, each with its own name (what a picker shows) and direction. */
export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((l) => l.code === value);
}

export function directionOf(code: string): 'ltr' | 'rtl' {
  return LANGUAGES.find((l) => l.code === code)?.dir ?? 'ltr';
}

/**
 * The shipped language that best serves a list of BCP 47 tags in order of preference (the browser's
 * `navigator.languages`): an exact match first (`pt-BR`), then the same base language (`fr-CA` gets
 * `fr`, `pt-PT` gets `pt-BR`, the only Portuguese we have), else the default.
 */
export function bestLanguage(preferred: readonly string[]): LanguageCode {
  for (const tag of preferred) {
    const exact = LANGUAGES.find((l) => l.code.toLowerCase() === tag.toLowerCase());
    if (exact) return exact.code;
    const base = tag.split('-')[0]!.toLowerCase();
    const sameBase = LANGUAGES.find((l) => l.code.split('-')[0]!.toLowerCase() === base);
    if (sameBase) return sameBase.code;
  }
  return DEFAULT_LANGUAGE;
}
