import { LANGUAGES, type Language, matchLanguage } from '@reelhouse/contract';

export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The language the site speaks that best serves a list of BCP 47 tags in order of preference, each
 * matched by the contract's rule (`fr-CA` is French, `pt-PT` Brazilian Portuguese); null when none is
 * spoken. The web client chooses the same way (web/src/i18n/languages.ts).
 */
export function bestLanguage(preferred: readonly string[]): Language | null {
  for (const tag of preferred) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return null;
}

/**
 * The tags of an Accept-Language header, most wanted first (RFC 9110: `q` weights, ties in the
 * order given); `*` and tags weighted 0 are left out.
 */
export function acceptedTags(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const weighted: { tag: string; q: number; at: number }[] = [];
  for (const [at, part] of text.split(',').entries()) {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    const name = tag.trim();
    if (name && name !== '*' && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(name) && weight > 0) weighted.push({ tag: name, q: weight, at });
  }
  return weighted.sort((a, b) => b.q - a.q || a.at - b.at).map((w) => w.tag);
}

/** The language an Accept-Language header asks for among those the site speaks; null when it asks for none of them. */
export function headerLanguage(header: string | string[] | undefined): Language | null {
  return bestLanguage(acceptedTags(header));
}

/** A stored language as one the site speaks; null for none (or one it no longer speaks). */
export function knownLanguage(value: string | null | undefined): Language | null {
  return LANGUAGES.find((code) => code === value) ?? null;
}
