const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
const FACTOR: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** 1234567 -> "1.2 MB" (decimal units, as disks and uploads are sold). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${UNITS[unit]}`;
}

/** A quota as admins read it: null is the site's default, -1 no limit. */
export function formatQuota(bytes: number | null): string {
  if (bytes === null) return 'Site default';
  if (bytes === -1) return 'Unlimited';
  return formatBytes(bytes);
}

export type QuotaInput = { ok: true; bytes: number | null } | { ok: false; error: string };

/**
 * What an admin typed as a quota: empty for the site's default, "unlimited", or a size such as
 * "500 MB", "2.5GB" or a plain number of bytes.
 */
export function parseQuota(text: string): QuotaInput {
  const t = text.trim().toLowerCase();
  if (t === '' || t === 'default') return { ok: true, bytes: null };
  if (t === 'unlimited' || t === '-1') return { ok: true, bytes: -1 };
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)?$/.exec(t);
  if (!m) return { ok: false, error: 'Enter a size such as 500 MB or 2 GB, "unlimited", or leave it empty for the site default' };
  const bytes = Math.round(Number(m[1]) * FACTOR[m[2] ?? 'b']!);
  if (!Number.isSafeInteger(bytes)) return { ok: false, error: 'That size is too large' };
  return { ok: true, bytes };
}

/** The text a quota field starts with, which parseQuota reads back to the same value. */
export function quotaText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes === -1) return 'unlimited';
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

/** "3 minutes ago"-style times are vague for an audit trail: the exact local date and time. */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** How long something took: "850 ms", "42 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
