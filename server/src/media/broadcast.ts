import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fastStartArgs } from './ffmpeg-args.js';
import { AAC_LC_CODEC, avc1FromInitSegment, measureBandwidth, parseMediaPlaylist } from './hls.js';
import type { ToolOptions } from './video-tools.js';

/** A lower rung of a live's ladder: at most this tall (never taller than the source), at this bitrate. */
export interface BroadcastRung {
  maxHeight: number;
  videoBitrate: number;
}

/** Below the source (passed through as it is), the rungs every live gets. */
export const BROADCAST_RUNGS: BroadcastRung[] = [
  { maxHeight: 480, videoBitrate: 1_200_000 },
  { maxHeight: 240, videoBitrate: 400_000 },
];
export const BROADCAST_SEGMENT_SECONDS = 1;

/** What the encoder said of its video before the first frames (its metadata); null where it said nothing. */
export interface SourceVideo {
  codec: string | null;
  height: number | null;
  frameRate: number | null;
}

/** The most a source may be and still be passed through to viewers as it is. */
export const PASS_THROUGH_CAPS = { maxHeight: 1080, maxFrameRate: 60 };

/**
 * The top rung: the source's own video when every browser plays it and it is within the caps
 * (H.264, at most 1080 lines and 60 frames a second), else the source encoded again to H.264 at
 * most that tall. What the encoder did not say is taken to be within the caps, as it nearly always
 * is: an encoder that sends H.264 sends its metadata.
 */
export function topRungFor(source: SourceVideo | null): 'copy' | BroadcastRung {
  const within =
    (source?.codec ?? 'h264') === 'h264' && (source?.height ?? 0) <= PASS_THROUGH_CAPS.maxHeight && (source?.frameRate ?? 0) <= PASS_THROUGH_CAPS.maxFrameRate;
  if (within) return 'copy';
  const height = Math.min(source?.height ?? PASS_THROUGH_CAPS.maxHeight, PASS_THROUGH_CAPS.maxHeight);
  return { maxHeight: height, videoBitrate: height > 720 ? 5_000_000 : height > 480 ? 2_800_000 : 1_500_000 };
}

export interface BroadcastPlan {
  /** The top rung: the source passed through, or encoded again when it is not fit to pass. */
  top: 'copy' | BroadcastRung;
  rungs: BroadcastRung[];
  /** Segments each media playlist keeps (the DVR window). */
  listSize: number;
  /** Where, relative to the working directory, the whole stream is also copied for the replay. */
  recording: string;
}

/**
 * One ffmpeg for a live: the source's video passed through as the top rung, each lower rung scaled
 * (never up) and encoded with a keyframe every segment, AAC stereo on every rung, fMP4 segments of
 * about one second in `r<N>/` with a sliding playlist each and a master playlist; and the stream as
 * it arrived, copied into an MPEG-TS recording.
 */
export function broadcastArgs(input: string, plan: BroadcastPlan, inputFormat?: string): string[] {
  const n = plan.rungs.length;
  // Encoded rungs, the top one first when the source is not passed through.
  const encoded = plan.top === 'copy' ? plan.rungs : [plan.top, ...plan.rungs];
  const first = plan.top === 'copy' ? 1 : 0;
  const split = `[0:v]split=${encoded.length}${encoded.map((_, i) => `[s${i}]`).join('')}`;
  // Never above 60 frames a second: a source over the caps is brought down to them.
  const fpsCap = plan.top === 'copy' ? '' : `,fps='min(${PASS_THROUGH_CAPS.maxFrameRate},source_fps)'`;
  const scales = encoded.map((r, i) => `[s${i}]scale=-2:'min(${r.maxHeight},ih)'${fpsCap},format=yuv420p[v${i}]`);
  // Reading the live from standard input, ffmpeg must not take it for the keyboard as well.
  const args = ['-hide_banner', '-y', '-loglevel', 'error', ...(inputFormat ? ['-f', inputFormat] : ['-nostdin']), '-i', input];
  args.push('-filter_complex', [split, ...scales].join(';'));
  if (plan.top === 'copy') args.push('-map', '0:v:0');
  args.push(...encoded.flatMap((_, i) => ['-map', `[v${i}]`]));
  for (let i = 0; i <= n; i++) args.push('-map', '0:a:0?');
  if (plan.top === 'copy') args.push('-c:v:0', 'copy');
  encoded.forEach((r, i) => {
    const k = i + first;
    args.push(
      `-c:v:${k}`,
      'libx264',
      `-b:v:${k}`,
      String(r.videoBitrate),
      `-maxrate:v:${k}`,
      String(r.videoBitrate),
      `-bufsize:v:${k}`,
      String(r.videoBitrate * 2),
    );
  });
  const fps = 30;
  args.push('-preset', 'veryfast', '-tune', 'zerolatency', '-g', String(fps * BROADCAST_SEGMENT_SECONDS), '-sc_threshold', '0');
  args.push('-force_key_frames', `expr:gte(t,n_forced*${BROADCAST_SEGMENT_SECONDS})`);
  args.push('-c:a', 'aac', '-b:a', '128k', '-ac', '2');
  args.push(
    ...['-f', 'hls', '-hls_time', String(BROADCAST_SEGMENT_SECONDS), '-hls_list_size', String(plan.listSize)],
    ...['-hls_segment_type', 'fmp4', '-hls_flags', 'independent_segments+temp_file+delete_segments'],
    ...['-master_pl_name', 'master.m3u8', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', 'r%v/seg-%06d.m4s'],
    ...['-var_stream_map', Array.from({ length: n + 1 }, (_, i) => `v:${i},a:${i}`).join(' '), 'r%v/index.m3u8'],
  );
  args.push('-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-f', 'mpegts', plan.recording);
  return args;
}

/** What a rung's first published segments say of it. */
export interface RungMeasure {
  peak: number;
  average: number;
  codecs: string[];
}

/**
 * ffmpeg's master playlist with each rung's BANDWIDTH, AVERAGE-BANDWIDTH and CODECS as measured:
 * for the passed-through rung ffmpeg knows neither (it writes the audio's bitrate alone), and a
 * player would take the source for the cheapest rung.
 */
export function withMeasuredRungs(master: string, measured: Record<string, RungMeasure>): string {
  const lines = master.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const m = measured[lines[i + 1]!.trim()];
    if (!lines[i]!.startsWith('#EXT-X-STREAM-INF:') || !m) continue;
    const attrs = lines[i]!.slice('#EXT-X-STREAM-INF:'.length)
      .replace(/(^|,)(BANDWIDTH|AVERAGE-BANDWIDTH)=\d+/g, '')
      .replace(/(^|,)CODECS="[^"]*"/, '')
      .replace(/^,/, '');
    const codecs = m.codecs.length ? `,CODECS="${m.codecs.join(',')}"` : '';
    lines[i] = `#EXT-X-STREAM-INF:BANDWIDTH=${m.peak},AVERAGE-BANDWIDTH=${m.average}${attrs ? `,${attrs}` : ''}${codecs}`;
  }
  return lines.join('\n');
}

/** Measures a rung from its playlist and the files it names in `dir`. */
async function measureRung(dir: string, rung: string, playlist: string): Promise<RungMeasure> {
  const list = parseMediaPlaylist(playlist);
  const sizes = await Promise.all(list.segments.map(async (seg) => (await fs.stat(path.join(dir, rung, seg.uri))).size));
  const init = list.initUri ? await fs.readFile(path.join(dir, rung, list.initUri)) : null;
  const { peak, average } = measureBandwidth(
    list.segments.map((seg, i) => ({ bytes: sizes[i]!, duration: seg.duration })),
    init?.length ?? 0,
  );
  const video = init ? avc1FromInitSegment(init) : null;
  const hasAudio = !!init && init.includes('mp4a', 0, 'latin1');
  return { peak, average, codecs: [...(video ? [video] : []), ...(hasAudio ? [AAC_LC_CODEC] : [])] };
}

export interface BroadcastUpdate {
  /** Files new since the last update, relative to the working directory, in the order they must be published. */
  newFiles: string[];
  /** Playlists changed since the last update (relative path -> text), each naming only published files. */
  playlists: Record<string, string>;
  dir: string;
}

/**
 * Runs a live's ffmpeg in `dir` until its input ends or `signal` stops it. Every `pollMs` each
 * rung's playlist is read; `onUpdate` gets the files it newly names (init segment first) and the
 * playlists to publish after them, and the master playlist once every rung has a segment.
 */
/** Where a broadcast reads the live: a URL ffmpeg opens, or a stream in a format ffmpeg is told. */
export type BroadcastInput = string | { stream: Readable; format: string };

export async function runBroadcast(
  input: BroadcastInput,
  dir: string,
  plan: BroadcastPlan,
  opts: ToolOptions & { onUpdate(update: BroadcastUpdate): Promise<void>; pollMs?: number },
): Promise<void> {
  const rungs = plan.rungs.length + 1;
  for (let i = 0; i < rungs; i++) await fs.mkdir(path.join(dir, `r${i}`), { recursive: true });
  const published = new Set<string>();
  const lastText = new Map<string, string>();
  let masterDone = false;
  const check = async () => {
    const newFiles: string[] = [];
    const playlists: Record<string, string> = {};
    let ready = 0;
    for (let i = 0; i < rungs; i++) {
      const rel = `r${i}/index.m3u8`;
      const text = await fs.readFile(path.join(dir, rel), 'utf8').catch(() => null);
      if (!text) continue;
      const list = parseMediaPlaylist(text);
      if (!list.initUri || list.segments.length === 0) continue;
      ready++;
      if (lastText.get(rel) === text) continue;
      for (const name of [list.initUri, ...list.segments.map((s) => s.uri)]) {
        const file = `r${i}/${name}`;
        if (!published.has(file)) newFiles.push(file);
      }
      playlists[rel] = text;
    }
    if (!masterDone && ready === rungs) {
      const master = await fs.readFile(path.join(dir, 'master.m3u8'), 'utf8').catch(() => null);
      if (master) {
        const measured: Record<string, RungMeasure> = {};
        for (let i = 0; i < rungs; i++) {
          const rel = `r${i}/index.m3u8`;
          const text = playlists[rel] ?? lastText.get(rel);
          // A rung that cannot be measured keeps ffmpeg's figures: the master is still published.
          const m = text ? await measureRung(dir, `r${i}`, text).catch(() => null) : null;
          if (m) measured[rel] = m;
        }
        playlists['master.m3u8'] = withMeasuredRungs(master, measured);
      }
    }
    if (newFiles.length === 0 && Object.keys(playlists).length === 0) return;
    await opts.onUpdate({ newFiles, playlists, dir });
    for (const f of newFiles) published.add(f);
    for (const [rel, text] of Object.entries(playlists)) {
      lastText.set(rel, text);
      if (rel === 'master.m3u8') masterDone = true;
    }
  };

  const stop = new AbortController();
  const onAbort = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  opts.logger?.info({ dir }, 'ffmpeg broadcast started');
  // A live has no length to derive a limit from: it runs until its input ends or it is stopped.
  const args = typeof input === 'string' ? broadcastArgs(input, plan) : broadcastArgs('pipe:0', plan, input.format);
  const encode = opts.tools.ffmpeg(args, {
    cwd: dir,
    signal: stop.signal,
    timeoutMs: opts.timeoutMs ?? 24 * 3600_000,
    ...(typeof input === 'string' ? {} : { stdin: input.stream }),
  });
  let running = true;
  const finished = encode.finally(() => (running = false));
  // Awaited below, after a first look at the folder: a broadcast stopped before ffmpeg started
  // rejects at once, and must not be an unhandled rejection in the meantime.
  finished.catch(() => {});
  const pollMs = opts.pollMs ?? 200;
  try {
    while (running) {
      await check();
      if (running) await Promise.race([finished.catch(() => {}), new Promise((r) => setTimeout(r, pollMs))]);
    }
    await finished.catch((err: unknown) => {
      // Stopped on purpose (the live ended, its key changed): what was made so far stands.
      if (!stop.signal.aborted) throw err;
    });
    await check();
  } catch (err) {
    stop.abort(err);
    await finished.catch(() => {});
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  opts.logger?.info({ dir }, 'ffmpeg broadcast ended');
}

/**
 * The recording as a fast-start mp4 (streams copied), the form uploads are kept in, so its replay
 * goes through the pipeline like any upload. Answers false when nothing was recorded.
 */
export async function finishRecording(ts: string, mp4: string, opts: ToolOptions): Promise<boolean> {
  const stat = await fs.stat(ts).catch(() => null);
  if (!stat || stat.size === 0) return false;
  await opts.tools.ffmpeg(fastStartArgs(ts, mp4), { timeoutMs: opts.timeoutMs ?? 60_000 + Math.ceil(stat.size / 1_000_000) * 1000 });
  return true;
}

/**
 * Recordings of one live (its key renewed midway made a broadcast of each) joined, in order, into one
 * fast-start mp4, streams copied: the concat demuxer takes them when their codecs match, as one
 * encoder's do; it fails when they do not, and the caller keeps what it had.
 */
export async function joinRecordings(inputs: string[], output: string, opts: ToolOptions): Promise<void> {
  const list = `${output}.txt`;
  await fs.writeFile(list, inputs.map((f) => `file '${f.replaceAll("'", "'\\''")}'`).join('\n') + '\n');
  try {
    await opts.tools.ffmpeg(
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-loglevel',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        list,
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-c',
        'copy',
        '-movflags',
        '+faststart',
        output,
      ],
      { timeoutMs: opts.timeoutMs ?? 600_000, signal: opts.signal },
    );
  } finally {
    await fs.rm(list, { force: true });
  }
}
