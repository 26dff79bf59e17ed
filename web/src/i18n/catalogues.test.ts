import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseKey, compareWithEnglish, readCatalogues, usedKeys } from './catalogue-check';
import { LANGUAGES } from './languages';

const src = path.resolve(import.meta.dirname, '..');
const catalogues = readCatalogues(path.join(src, 'locales'));
const english = catalogues.get('en')!;

describe('the message catalogues', () => {
  it('exist for every shipped language and no other', () => {
    expect([...catalogues.keys()].sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  it.each(LANGUAGES.filter((l) => l.code !== 'en').map((l) => l.code))(
    '%s has every English key in its own plural forms, with no stray key or variable',
    (language) => {
      expect(compareWithEnglish(language, english, catalogues.get(language)!)).toEqual([]);
    },
  );

  it('hold every key the code asks for, and no key the code never asks for', () => {
    const { keys, faults } = usedKeys(src);
    const known = new Set<string>();
    for (const [namespace, entries] of english) for (const key of Object.keys(entries)) known.add(`${namespace}:${baseKey(key)}`);
    const missing = [...keys].filter((k) => !known.has(k));
    const unused = [...known].filter((k) => !keys.has(k));
    expect({ faults, missing, unused }).toEqual({ faults: [], missing: [], unused: [] });
  });
});
