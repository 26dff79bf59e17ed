/**
 * `?t=` of a video link as seconds: `192`, or YouTube's `3m12s` / `1h2m3s`; null when absent or
 * not a time. A search result found by its captions links to the moment the words are said.
 */
export function parseStartTime(raw: string | null): number | null {
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) > 0 ? Number(raw) : null;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(raw);
  if (!m) return null;
  const seconds = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  return seconds > 0 ? seconds : null;
}
