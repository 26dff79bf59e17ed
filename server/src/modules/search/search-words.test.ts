import { describe, expect, it } from 'vitest';
import { indexWords, searchWords, textMatches } from './search-words.js';

describe('searchWords', () => {
  it('splits on anything that is not a letter or digit and lower-cases', () => {
    expect(searchWords('Dino-Rex: "Part 2" (OR) NEAR*')).toEqual(['dino', 'rex', 'part', '2', 'or', 'near']);
  });

  it('keeps letters of any script and drops duplicates', () => {
    expect(searchWords("Überraschung über café's Ünïcode 東京")).toEqual(['überraschung', 'über', 'café', 's', 'ünïcode', '東京']);
    expect(searchWords('dino DINO Dino')).toEqual(['dino']);
  });

  it('has no words for blank or punctuation-only text', () => {
    expect(searchWords(undefined)).toEqual([]);
    expect(searchWords('   ')).toEqual([]);
    expect(searchWords(`"*()-:' `)).toEqual([]);
  });

  it('caps the number of words', () => {
    expect(searchWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });
});

describe('textMatches', () => {
  it('finds every word as the start of a word, folding case and Latin diacritics as the index does', () => {
    expect(textMatches(['Dinosaurs of the Cretaceous', '', ''], ['dino', 'cret'])).toBe(true);
    expect(textMatches(['Café crème', '', ''], ['cafe', 'creme'])).toBe(true);
    expect(textMatches(['Cooking', 'paula pasta', 'A dinosaur-shaped recipe'], ['shaped', 'paula'])).toBe(true);
    expect(textMatches(['Dinosaurs', '', ''], ['saurs'])).toBe(false);
    expect(textMatches(['Dinosaurs', '', ''], ['dino', 'rex'])).toBe(false);
    expect(indexWords('john.doe@mail 東京 Ünïcode')).toEqual(['john', 'doe', 'mail', '東京', 'unicode']);
  });
});
