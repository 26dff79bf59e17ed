import { i18n } from '@/i18n/i18n';
import { formatBytes, formatDateTime, formatNumber } from '@/lib/format';

const FACTOR: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** A quota as admins read it: null is the site's default, -1 no limit. */
export function formatQuota(bytes: number | null): string {
  if (bytes === null) return i18n.t('admin:quota.siteDefault');
  if (bytes === -1) return i18n.t('admin:quota.unlimited');
  return formatBytes(bytes);
}

export type QuotaInput = { ok: true; bytes: number | null } | { ok: false; error: string };

/** The word for no limit in a quota field: the English one, and the interface language's. */
function isUnlimited(t: string): boolean {
  return t === 'unlimited' || t === '-1' || t === i18n.t('admin:quota.unlimitedWord').toLowerCase();
}

/**
 * What an admin typed as a quota: empty for the site's default, "unlimited", or a size such as
 * "500 MB", "2.5GB" or a plain number of bytes (a decimal comma is read as a point).
 */
export function parseQuota(text: string): QuotaInput {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'default') return { ok: true, bytes: null };
  if (isUnlimited(t)) return { ok: true, bytes: -1 };
  const m = /^(\d+(?:[.,]\d+)?)\s*(b|kb|mb|gb|tb)?$/.exec(t);
  if (!m) return { ok: false, error: i18n.t('admin:quota.invalid', { unlimited: i18n.t('admin:quota.unlimitedWord') }) };
  const bytes = Math.round(Number(m[1]!.replace(',', '.')) * FACTOR[m[2] ?? 'b']!);
  if (!Number.isSafeInteger(bytes)) return { ok: false, error: i18n.t('admin:quota.tooLarge') };
  return { ok: true, bytes };
}

/** The text a quota field starts with, which parseQuota reads back to the same value. */
export function quotaText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes === -1) return i18n.t('admin:quota.unlimitedWord');
  for (const [unit, f] of [
    ['TB', 1e12],
    ['GB', 1e9],
    ['MB', 1e6],
    ['KB', 1e3],
  ] as const) {
    if (bytes >= f && bytes % (f / 100) === 0) return `${bytes / f} ${unit}`;
  }
  return String(bytes);
}

/** "3 minutes ago"-style times are vague for an audit trail: the exact date and time, as the language writes them. */
export function formatWhen(iso: string): string {
  return formatDateTime(iso) || iso;
}

/** How long something took: "850 ms", "42 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return i18n.t('admin:took.milliseconds', { ms: formatNumber(Math.round(ms)) });
  const s = Math.round(ms / 1000);
  if (s < 60) return i18n.t('admin:took.seconds', { s: formatNumber(s) });
  const m = Math.floor(s / 60);
  if (m < 60)
    return s % 60 ? i18n.t('admin:took.minutesSeconds', { m: formatNumber(m), s: formatNumber(s % 60) }) : i18n.t('admin:took.minutes', { m: formatNumber(m) });
  const h = Math.floor(m / 60);
  return m % 60 ? i18n.t('admin:took.hoursMinutes', { h: formatNumber(h), m: formatNumber(m % 60) }) : i18n.t('admin:took.hours', { h: formatNumber(h) });
}
