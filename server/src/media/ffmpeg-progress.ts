/**
 * Reads ffmpeg's `-progress pipe:1` stream (key=value lines, a block per update ending with
 * `progress=continue` or `progress=end`) and turns it into a percentage of the expected duration.
 */
export function createProgressParser(durationSeconds: number, onPercent: (percent: number) => void) {
  let last = -1;
  const emit = (p: number) => {
    const clamped = Math.max(0, Math.min(100, Math.floor(p)));
    if (clamped !== last) {
      last = clamped;
      onPercent(clamped);
    }
  };
  return (line: string) => {
    const eq = line.indexOf('=');
    if (eq < 0) return;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1).trim();
    // out_time_ms is, despite its name, in microseconds as well; out_time_us is the honest one.
    if (key === 'out_time_us' && durationSeconds > 0) {
      const us = Number(value);
      if (Number.isFinite(us) && us >= 0) emit(Math.min(99, (us / 1e6 / durationSeconds) * 100));
    } else if (key === 'progress' && value === 'end') {
      emit(100);
    }
  };
}
