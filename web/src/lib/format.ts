/** Seconds as m:ss, mm:ss, or h:mm:ss past an hour. */
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

/** "3 days ago", "1 hour ago", "just now". */
export function timeAgo(date: string | Date, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const diff = Math.floor((now.getTime() - then.getTime()) / 1000);
  if (!Number.isFinite(diff)) return '';
  if (diff < 10) return 'just now';
  for (const [unit, size] of UNITS) {
    if (diff >= size) {
      const n = Math.floor(diff / size);
      return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

/** 1234 -> "1.2K", 2500000 -> "2.5M". */
export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  const fmt = (v: number, suffix: string) => `${(Math.floor(v * 10) / 10).toString()}${suffix}`;
  if (n < 1_000_000) return fmt(n / 1000, 'K');
  if (n < 1_000_000_000) return fmt(n / 1_000_000, 'M');
  return fmt(n / 1_000_000_000, 'B');
}

export function formatViews(n: number): string {
  return `${compactNumber(n)} ${n === 1 ? 'view' : 'views'}`;
}

export function formatSubscribers(n: number): string {
  return `${compactNumber(n)} ${n === 1 ? 'subscriber' : 'subscribers'}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
