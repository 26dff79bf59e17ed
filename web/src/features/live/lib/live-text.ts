/**
 * "Live starts in 1 h 02 min", "in 5 min 03 s", "in 12 s"; "Starting soon" once the time has come
 * and nothing is on air yet.
 */
export function countdownText(scheduledStart: string, now: Date = new Date()): string {
  const seconds = Math.ceil((new Date(scheduledStart).getTime() - now.getTime()) / 1000);
  if (!Number.isFinite(seconds)) return 'Waiting for the stream to start';
  if (seconds <= 0) return 'Starting soon';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `Live starts in ${days} d ${hours} h`;
  if (hours > 0) return `Live starts in ${hours} h ${pad(minutes)} min`;
  if (minutes > 0) return `Live starts in ${minutes} min ${pad(secs)} s`;
  return `Live starts in ${secs} s`;
}

/** "1 watching", "1.2K watching". */
export function watchingText(viewers: number): string {
  const n = Math.max(0, viewers);
  if (n < 1000) return `${n} watching`;
  const k = n < 1_000_000 ? `${Math.floor(n / 100) / 10}K` : `${Math.floor(n / 100_000) / 10}M`;
  return `${k} watching`;
}

/** Bits per second as "2.5 Mb/s" or "640 kb/s". */
export function bitrateText(bps: number | null): string {
  if (bps === null) return '—';
  if (bps >= 1_000_000) return `${(bps / 1_000_000).toFixed(1)} Mb/s`;
  return `${Math.round(bps / 1000)} kb/s`;
}

/** "last data 2 s ago", "no data yet". */
export function lastDataText(lastDataAt: string | null, now: Date = new Date()): string {
  if (!lastDataAt) return 'no data yet';
  const s = Math.max(0, Math.round((now.getTime() - new Date(lastDataAt).getTime()) / 1000));
  if (s < 60) return `last data ${s} s ago`;
  if (s < 3600) return `last data ${Math.floor(s / 60)} min ago`;
  return `last data ${Math.floor(s / 3600)} h ago`;
}

/** Upcoming / Live / Ended, as the studio lists lives. */
export function liveStatusLabel(status: 'upcoming' | 'live' | 'ended'): string {
  return status === 'upcoming' ? 'Upcoming' : status === 'live' ? 'Live' : 'Ended';
}
