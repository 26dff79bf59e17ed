import { describe, expect, it } from 'vitest';
import { acceptedTags, headerLanguage, knownLanguage } from './languages.js';

describe('the language a request asks for', () => {
  it('reads Accept-Language by weight, ties in the order given, leaving out * and q=0', () => {
    expect(acceptedTags('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en', 'de']);
    expect(acceptedTags('en;q=0.2, ja, ar;q=0')).toEqual(['ja', 'en']);
    expect(acceptedTags(undefined)).toEqual([]);
    expect(acceptedTags('not a tag!, 12')).toEqual([]);
  });

  it('takes the best language the site speaks: the same code, else the same base language', () => {
    expect(headerLanguage('pt-BR')).toBe('pt-BR');
    expect(headerLanguage('pt-PT,pt;q=0.9')).toBe('pt-BR');
    expect(headerLanguage('fr-CA')).toBe('fr');
    expect(headerLanguage('zh-CN, es-419;q=0.8')).toBe('es');
    expect(headerLanguage('JA-jp')).toBe('ja');
  });

  it('is none for a header that names no language the site speaks, or no header', () => {
    expect(headerLanguage('zh-TW, it;q=0.5')).toBeNull();
    expect(headerLanguage('*')).toBeNull();
    expect(headerLanguage(undefined)).toBeNull();
  });

  it('trusts a stored language only when the site still speaks it', () => {
    expect(knownLanguage('ar')).toBe('ar');
    expect(knownLanguage('it')).toBeNull();
    expect(knownLanguage(null)).toBeNull();
  });
});
