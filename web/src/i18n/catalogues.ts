import type { LanguageCode } from './languages';

type Catalogue = Record<string, unknown>;

/**
 * Every catalogue file, `locales/<language>/<namespace>.json`, as a loader: Vite makes each a chunk
 * of its own, fetched only when its language is chosen, so a visitor downloads one language.
 */
const files = import.meta.glob<Catalogue>('../locales/*/*.json', { import: 'default' });

function parse(path: string): { language: string; namespace: string } {
  const [, language, file] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  return { language: language!, namespace: file! };
}

/** The namespaces, one per catalogue file of the default language (the check keeps the others alike). */
export const NAMESPACES = [...new Set(Object.keys(files).map((p) => parse(p).namespace))].sort();

/** All of a language's catalogues, by namespace. */
export async function loadLanguage(language: LanguageCode): Promise<Record<string, Catalogue>> {
  const entries = Object.entries(files).filter(([path]) => parse(path).language === language);
  const loaded = await Promise.all(entries.map(async ([path, load]) => [parse(path).namespace, await load()] as const));
  return Object.fromEntries(loaded);
}
