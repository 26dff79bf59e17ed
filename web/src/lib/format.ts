import { currentLanguage, i18n } from '@/i18n/i18n';

/** Seconds as m:ss, mm:ss, or h:mm:ss past an hour (the same in every language, as players show it). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  const ss = String(seconds).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${ss}`;
  return `${String(minutes).padStart(2, '0')}:${ss}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

// Intl formatters are costly to build and a list page formats hundreds of values: one per language.
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const compactFormats = new Map<string, Intl.NumberFormat>();

function relativeFormat(language: string) {
  let format = relativeFormats.get(language);
  if (!format) relativeFormats.set(language, (format = new Intl.RelativeTimeFormat(language, { numeric: 'always' })));
  return format;
}

function compactFormat(language: string) {
  let format = compactFormats.get(language);
  if (!format) {
    // Truncated, not rounded: 1,299 views is "1.2K", never more than were counted.
    format = new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1, roundingMode: 'trunc' } as Intl.NumberFormatOptions);
    compactFormats.set(language, format);
  }
  return format;
}

/** "3 days ago", "il y a 3 jours", "3 日前", or "just now" in the interface's language. */
export function timeAgo(date: string | Date, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const diff = Math.floor((now.getTime() - then.getTime()) / 1000);
  if (!Number.isFinite(diff)) return '';
  if (diff >= 10) {
    for (const [unit, size] of UNITS) {
      if (diff >= size) return relativeFormat(currentLanguage()).format(-Math.floor(diff / size), unit);
    }
  }
  return i18n.t('common:justNow');
}

/** 1234 -> "1.2K" (English), "1,2 k" (French), "1234" (Japanese: 万 starts at 10,000). */
export function compactNumber(n: number): string {
  return compactFormat(currentLanguage()).format(n);
}

/** A whole number with the language's grouping: 12,345 or 12 345. */
export function formatNumber(n: number): string {
  return new Intl.NumberFormat(currentLanguage()).format(n);
}

/** A date, as the language writes one: "Mar 10, 2026", "10 mars 2026". */
export function formatDate(date: string | Date, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const d = typeof date === 'string' ? new Date(date) : date;
  return Number.isNaN(d.getTime()) ? '' : new Intl.DateTimeFormat(currentLanguage(), options).format(d);
}

/** A date and time, as the language writes one. */
export function formatDateTime(date: string | Date): string {
  return formatDate(date, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatViews(n: number): string {
  return i18n.t('common:viewCount', { count: n, formatted: compactNumber(n) });
}

export function formatSubscribers(n: number): string {
  return i18n.t('common:subscriberCount', { count: n, formatted: compactNumber(n) });
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * 1234567 -> "1.2 MB", "1,2 Mo", "1,2 MB": decimal units, as disks are sold and as admins type
 * quotas, written by Intl in the interface's language; "—" for what is not a size.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return new Intl.NumberFormat(currentLanguage(), { style: 'unit', unit: BYTE_UNITS[unit], unitDisplay: 'short', maximumFractionDigits: digits }).format(value);
}
