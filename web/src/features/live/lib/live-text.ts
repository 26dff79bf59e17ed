import { currentLanguage, i18n } from '@/i18n/i18n';
import { compactNumber, formatNumber } from '@/lib/format';

/**
 * "Live starts in 1 h 02 min", "in 5 min 03 s", "in 12 s"; "Starting soon" once the time has come
 * and nothing is on air yet.
 */
export function countdownText(scheduledStart: string, now: Date = new Date()): string {
  const seconds = Math.ceil((new Date(scheduledStart).getTime() - now.getTime()) / 1000);
  if (!Number.isFinite(seconds)) return i18n.t('live:countdown.waiting');
  if (seconds <= 0) return i18n.t('live:countdown.soon');
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return i18n.t('live:countdown.days', { days, hours });
  if (hours > 0) return i18n.t('live:countdown.hours', { hours, minutes: pad(minutes) });
  if (minutes > 0) return i18n.t('live:countdown.minutes', { minutes, seconds: pad(secs) });
  return i18n.t('live:countdown.seconds', { seconds: secs });
}

/** "1 watching", "1.2K watching". */
export function watchingText(viewers: number): string {
  const n = Math.max(0, viewers);
  return i18n.t('live:watching', { count: n, formatted: compactNumber(n) });
}

/** Bits per second as "2.5 Mb/s" or "640 kb/s". */
export function bitrateText(bps: number | null): string {
  if (bps === null) return '—';
  if (bps >= 1_000_000) {
    const mb = new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bps / 1_000_000);
    return `${mb} Mb/s`;
  }
  return `${formatNumber(Math.round(bps / 1000))} kb/s`;
}

/** "last data 2 s ago", "no data yet". */
export function lastDataText(lastDataAt: string | null, now: Date = new Date()): string {
  if (!lastDataAt) return i18n.t('live:lastData.none');
  const s = Math.max(0, Math.round((now.getTime() - new Date(lastDataAt).getTime()) / 1000));
  if (s < 60) return i18n.t('live:lastData.seconds', { seconds: s });
  if (s < 3600) return i18n.t('live:lastData.minutes', { minutes: Math.floor(s / 60) });
  return i18n.t('live:lastData.hours', { hours: Math.floor(s / 3600) });
}
