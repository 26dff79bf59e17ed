import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '@reelhouse/contract';
import { describe, expect, it } from 'vitest';
import type { Catalogue } from './catalogue.js';
import { CATALOGUES, translator } from './translator.js';

const PLURAL = /_(zero|one|two|few|many|other)$/;
const baseKey = (key: string) => key.replace(PLURAL, '');

function flatten(catalogue: Catalogue, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(catalogue)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'object') Object.assign(out, flatten(value, full));
    else out[full] = value;
  }
  return out;
}

const variables = (text: string) => new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!));
const english = flatten(CATALOGUES.en);

/** What is wrong with a language's catalogue against English's, one line each. */
function faults(language: (typeof LANGUAGES)[number]): string[] {
  const found: string[] = [];
  const keys = flatten(CATALOGUES[language]);
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const pluralBases = new Set(
    Object.keys(english)
      .filter((k) => PLURAL.test(k))
      .map(baseKey),
  );
  const expected = new Set<string>();
  for (const key of Object.keys(english)) {
    if (pluralBases.has(baseKey(key))) for (const c of categories) expected.add(`${baseKey(key)}_${c}`);
    else expected.add(key);
  }
  for (const key of expected) if (!(key in keys)) found.push(`${language}: ${key} is missing`);
  for (const key of Object.keys(keys)) if (!expected.has(key)) found.push(`${language}: ${key} is not an English key (or not a plural form ${language} uses)`);
  for (const [key, text] of Object.entries(keys)) {
    const source = english[key] ?? english[`${baseKey(key)}_other`];
    if (source === undefined) continue;
    const allowed = variables(source);
    allowed.add('count');
    for (const v of variables(text)) if (!allowed.has(v)) found.push(`${language}: ${key} uses {{${v}}}, which the English text does not have`);
    // A form other than the singular ones must say the number: Arabic's "one" and "two" name it in words.
    if (key.endsWith('_other') && variables(source).has('count') && !variables(text).has('count')) found.push(`${language}: ${key} does not say {{count}}`);
  }
  return found;
}

/** Every `t('key')` of the server's code (tests aside), as written: keys are never built at run time. */
function usedKeys(dir: string): string[] {
  const keys: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) keys.push(...usedKeys(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      for (const m of readFileSync(full, 'utf8').matchAll(/(?<![\w.$])t\(\s*'([\w.]+)'/g)) keys.push(m[1]!);
    }
  }
  return keys;
}

describe('the server catalogues', () => {
  it('exist for every language of the contract and no other', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every English key in each plural form its rules use, with no stray key or variable', (language) => {
    expect(faults(language)).toEqual([]);
  });

  it('hold every key the code asks for, and no key it never asks for', () => {
    const used = new Set(usedKeys(path.resolve(import.meta.dirname, '..')));
    const known = new Set(Object.keys(english).map(baseKey));
    expect({ missing: [...used].filter((k) => !known.has(k)), unused: [...known].filter((k) => !used.has(k)) }).toEqual({ missing: [], unused: [] });
  });

  it('chooses plural forms by each language’s own rules', () => {
    expect(translator('en')('mail.verify.outro', { count: 1 })).toContain('for 1 hour.');
    expect(translator('en')('mail.verify.outro', { count: 48 })).toContain('for 48 hours.');
    expect(translator('fr')('mail.verify.outro', { count: 48 })).toContain('pendant 48 heures.');
    expect(translator('ar')('mail.verify.outro', { count: 2 })).toContain('لمدة ساعتين.');
    expect(translator('ar')('mail.verify.outro', { count: 5 })).toContain('لمدة 5 ساعات.');
    expect(translator('ja')('mail.verify.outro', { count: 48 })).toContain('48時間');
  });

  it('fall back to English with no language', () => {
    expect(translator(null)('mail.reset.subject')).toBe('Reset your password');
  });
});
