import fs from 'node:fs/promises';
import path from 'node:path';
import { liveRenditionArgs } from './ffmpeg-args.js';
import { createProgressParser } from './ffmpeg-progress.js';
import { parseMediaPlaylist } from './hls.js';
import { MediaError } from './media-error.js';
import { probeMedia, type ProbeResult } from './probe.js';
import { outputFps, playableSize } from './video-plan.js';
import type { ToolOptions } from './video-tools.js';

/** The live rung: modest, so it encodes well ahead of real time even on a small, busy machine. */
export const LIVE_SHORT_SIDE = 480;
export const LIVE_MAX_VIDEO_BITRATE = 1_400_000;
/** Frame rates above this are halved for the live rung: it is about starting soon, not smoothness. */
export const LIVE_MAX_FPS = 30;

export interface LiveUpdate {
  /** The live playlist as players should see it (names only segments listed in `files` so far). */
  playlist: string;
  /** Files new since the last update, relative to the live directory, in the order they must be published. */
  newFiles: string[];
  /** Where those files are. */
  dir: string;
  /** Segments the playlist names. */
  segments: number;
  /** Seconds of video the playlist covers. */
  seconds: number;
  /** The playlist is complete (`#EXT-X-ENDLIST`). */
  ended: boolean;
}

export interface LiveRenditionResult {
  /** The fast-start mp4 of the same encode. */
  mp4: string;
  probe: ProbeResult;
  width: number;
  height: number;
}

/** Players start a live rendition at its beginning, not at its live edge: it is a recording. */
export function withStartAtBeginning(playlist: string): string {
  if (playlist.includes('#EXT-X-START:')) return playlist;
  return playlist.replace(/^#EXTM3U\r?\n/, '#EXTM3U\n#EXT-X-START:TIME-OFFSET=0,PRECISE=YES\n');
}

/** Size of the live rendition: a modest rung, never above the source. */
export function liveSize(source: ProbeResult): { width: number; height: number } {
  return playableSize(source, LIVE_SHORT_SIDE);
}

/**
 * Encodes a live-style HLS rendition of `input` into `<dir>/live/` and, from the same encode, a
 * fast-start `<dir>/play.mp4`. While ffmpeg runs, every `pollMs` the playlist is read and
 * `onUpdate` is awaited with the files it newly names (init segment first) and the playlist
 * text; a last update follows once the playlist is complete.
 */
export async function makeLiveRendition(
  input: string,
  dir: string,
  source: ProbeResult,
  opts: ToolOptions & { onUpdate(update: LiveUpdate): Promise<void>; pollMs?: number },
): Promise<LiveRenditionResult> {
  if (!source.video) throw new MediaError('failed', 'A live rendition needs a video stream');
  const size = liveSize(source);
  const sourceFps = outputFps(source);
  const fps = sourceFps > LIVE_MAX_FPS ? sourceFps / 2 : sourceFps;
  const liveDir = path.join(dir, 'live');
  await fs.mkdir(liveDir, { recursive: true });
  const args = liveRenditionArgs(input, {
    ...size,
    fps,
    gop: Math.max(1, Math.round(fps * 2)),
    hasAudio: source.audio !== null,
    maxVideoBitrate: LIVE_MAX_VIDEO_BITRATE,
    liveDir: 'live',
    mp4: 'play.mp4',
  });

  const published = new Set<string>();
  let lastText = '';
  const check = async (final: boolean) => {
    let text: string;
    try {
      text = await fs.readFile(path.join(liveDir, 'index.m3u8'), 'utf8');
    } catch {
      if (final) throw new MediaError('failed', 'The live rendition wrote no playlist');
      return;
    }
    if (text === lastText) return;
    const playlist = parseMediaPlaylist(text);
    if (!playlist.initUri || playlist.segments.length === 0) return;
    const names = [playlist.initUri, ...playlist.segments.map((s) => s.uri)];
    const newFiles = names.filter((n) => !published.has(n));
    await opts.onUpdate({
      playlist: withStartAtBeginning(text),
      newFiles,
      dir: liveDir,
      segments: playlist.segments.length,
      seconds: playlist.segments.reduce((t, s) => t + s.duration, 0),
      ended: playlist.ended,
    });
    for (const n of newFiles) published.add(n);
    lastText = text;
  };

  const started = Date.now();
  const onLine = opts.onProgress ? createProgressParser(source.duration, opts.onProgress) : undefined;
  // Stopped by the job's signal, or by a failed update: nothing keeps encoding for a failed job.
  const stop = new AbortController();
  const onAbort = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const encode = opts.tools.ffmpeg(args, {
    cwd: dir,
    signal: stop.signal,
    timeoutMs: opts.timeoutMs ?? 60_000 + Math.ceil(source.duration * 20 * 1000),
    onStdoutLine: onLine,
    background: opts.background,
  });
  let running = true;
  const finished = encode.finally(() => (running = false));
  // Publishing runs beside the encode; an update that fails stops the encode by failing the job.
  const pollMs = opts.pollMs ?? 200;
  try {
    while (running) {
      await check(false);
      if (running) await Promise.race([finished.catch(() => {}), new Promise((r) => setTimeout(r, pollMs))]);
    }
    await finished;
    await check(true);
  } catch (err) {
    stop.abort(err);
    await finished.catch(() => {});
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (!lastText.includes('#EXT-X-ENDLIST')) throw new MediaError('failed', 'The live playlist was not completed');
  opts.logger?.info({ ms: Date.now() - started, duration: source.duration }, 'ffmpeg live rendition done');
  const mp4 = path.join(dir, 'play.mp4');
  return { mp4, probe: await probeMedia(mp4, opts), ...size };
}
