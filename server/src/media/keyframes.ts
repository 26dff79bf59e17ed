import type { MediaTools } from './media-tools.js';

/**
 * Presentation times (seconds) of the video's keyframes, counted from the first one, read from the
 * packet index without decoding anything (a few hundred ms even for a long file).
 */
export async function readKeyframeTimes(file: string, opts: { tools: MediaTools; signal?: AbortSignal }): Promise<number[]> {
  const { stdout } = await opts.tools.ffprobe(
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', '--', file],
    { captureStdout: true, signal: opts.signal, timeoutMs: 120_000 },
  );
  return keyframeTimesFromCsv(stdout);
}

/** `pts_time,flags` lines to sorted keyframe times relative to the first keyframe. */
export function keyframeTimesFromCsv(csv: string): number[] {
  const times: number[] = [];
  for (const line of csv.split('\n')) {
    const [pts, flags] = line.trim().split(',');
    if (!flags?.includes('K')) continue;
    const t = Number(pts);
    if (Number.isFinite(t)) times.push(t);
  }
  times.sort((a, b) => a - b);
  const first = times[0] ?? 0;
  return times.map((t) => Math.round((t - first) * 1e6) / 1e6);
}
