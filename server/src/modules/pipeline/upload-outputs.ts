import path from 'node:path';
import type { Storage } from '../../storage/storage.js';

/**
 * Publishes a job's output files (relative to localDir) under prefix, a few at a time. The last
 * file (the index or master playlist) goes up alone, after everything it names.
 */
export async function uploadOutputs(
  storage: Storage,
  localDir: string,
  prefix: string,
  files: string[],
  opts: { signal: AbortSignal; progress(percent: number): void; from: number; to: number; lanes?: number },
): Promise<void> {
  const { from, to } = opts;
  const put = (rel: string) => storage.putFile(prefix + rel, path.join(localDir, ...rel.split('/')));
  const body = files.slice(0, -1);
  const last = files[files.length - 1];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < body.length) {
      const rel = body[next++]!;
      if (opts.signal.aborted) throw opts.signal.reason ?? new Error('aborted');
      await put(rel);
      done++;
      opts.progress(from + ((to - from) * done) / files.length);
    }
  };
  const lanes = Math.min(opts.lanes ?? 4, Math.max(1, body.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  if (last) await put(last);
  opts.progress(to);
}
