import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The rules every catalogue keeps, read from the files themselves so the test can name each fault:
 * every language has every key of the English catalogues, in each of the plural forms the
 * language's own rules use, with no variable the English text does not pass; and every key is one
 * the code asks for, and every key the code asks for exists.
 */

const PLURAL = /_(zero|one|two|few|many|other)$/;

export type Catalogue = Record<string, unknown>;

/** `{ a: { b: 'x' } }` as `{ 'a.b': 'x' }`. */
export function flatten(catalogue: Catalogue, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(catalogue)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') Object.assign(out, flatten(value as Catalogue, full));
    else out[full] = String(value);
  }
  return out;
}

/** A key as the code names it: `viewCount_one` is `viewCount`. */
export function baseKey(key: string): string {
  return key.replace(PLURAL, '');
}

function variables(text: string): Set<string> {
  return new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!));
}

export function readCatalogues(localesDir: string): Map<string, Map<string, Record<string, string>>> {
  const languages = new Map<string, Map<string, Record<string, string>>>();
  for (const language of readdirSync(localesDir)) {
    const dir = path.join(localesDir, language);
    if (!statSync(dir).isDirectory()) continue;
    const namespaces = new Map<string, Record<string, string>>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      namespaces.set(file.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Catalogue));
    }
    languages.set(language, namespaces);
  }
  return languages;
}

/** What is wrong with `language`'s catalogues against English's, one line each. */
export function compareWithEnglish(language: string, english: Map<string, Record<string, string>>, other: Map<string, Record<string, string>>): string[] {
  const faults: string[] = [];
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  for (const [namespace, englishKeys] of english) {
    const keys = other.get(namespace);
    if (!keys) {
      faults.push(`${language}: no ${namespace}.json`);
      continue;
    }
    const pluralBases = new Set(
      Object.keys(englishKeys)
        .filter((k) => PLURAL.test(k))
        .map(baseKey),
    );
    const expected = new Set<string>();
    for (const key of Object.keys(englishKeys)) {
      if (pluralBases.has(baseKey(key))) for (const c of categories) expected.add(`${baseKey(key)}_${c}`);
      else expected.add(key);
    }
    for (const key of expected) if (!(key in keys)) faults.push(`${language}: ${namespace}:${key} is missing`);
    for (const key of Object.keys(keys))
      if (!expected.has(key)) faults.push(`${language}: ${namespace}:${key} is not an English key (or not a plural form ${language} uses)`);
    for (const [key, text] of Object.entries(keys)) {
      const source = englishKeys[key] ?? englishKeys[`${baseKey(key)}_other`];
      if (source === undefined) continue;
      const allowed = variables(source);
      allowed.add('count');
      for (const v of variables(text)) if (!allowed.has(v)) faults.push(`${language}: ${namespace}:${key} uses {{${v}}}, which the English text does not have`);
    }
  }
  for (const namespace of other.keys()) if (!english.has(namespace)) faults.push(`${language}: ${namespace}.json has no English catalogue`);
  return faults;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'locales' && entry.name !== 'test') out.push(...sourceFiles(full));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && entry.name !== 'catalogue-check.ts') out.push(full);
  }
  return out;
}

/**
 * The keys the code asks for, as `namespace:key`, and the faults in how it asks. A file names its
 * namespace with `useTranslation('ns')` (the first of a list; none means `common`) and its keys as
 * string literals: `t('key')`, `t('other:key')`, `i18n.t('ns:key')`, `i18nKey="key"`. A key built
 * at run time cannot be checked and is a fault: write the choices out as literals.
 */
export function usedKeys(srcDir: string): { keys: Set<string>; faults: string[] } {
  const keys = new Set<string>();
  const faults: string[] = [];
  for (const file of sourceFiles(srcDir)) {
    // Comments out: a key in a comment is not asked for.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|\s)\/\/.*$/gm, '$1');
    const relative = path.relative(srcDir, file);
    const hook = /useTranslation\(\s*(?:\[\s*)?(?:'([\w-]+)')?/.exec(text);
    const defaultNamespace = hook ? (hook[1] ?? 'common') : null;
    const calls = [...text.matchAll(/(?<![\w.$])(?:i18n\.)?t\(\s*(['"`])((?:(?!\1).)*)\1/g), ...text.matchAll(/i18nKey=\{?\s*(['"`])((?:(?!\1).)*)\1/g)];
    for (const [, quote, key] of calls) {
      if (quote === '`' && key!.includes('${')) {
        faults.push(`${relative}: a key built at run time (${key})`);
        continue;
      }
      if (key!.includes(':')) keys.add(key!);
      else if (defaultNamespace) keys.add(`${defaultNamespace}:${key}`);
      else faults.push(`${relative}: t('${key}') without a namespace (no useTranslation in the file: write 'namespace:${key}')`);
    }
  }
  return { keys, faults };
}
