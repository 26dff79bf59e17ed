import fs from 'node:fs/promises';
import path from 'node:path';
import { fastStartArgs, ladderArgs, ladderAudioArgs, storyboardArgs } from './ffmpeg-args.js';
import { createProgressParser } from './ffmpeg-progress.js';
import { AAC_LC_CODEC, avc1FromInitSegment, buildMasterPlaylist, measureBandwidth, parseMediaPlaylist, type VariantInfo } from './hls.js';
import { MediaError } from './media-error.js';
import type { MediaTools } from './media-tools.js';
import { isBrowserPlayable, probeMedia, type ProbeResult } from './probe.js';
import { readKeyframeTimes } from './keyframes.js';
import { type LadderPlan, planLadder, planStoryboard, type StoryboardPlan } from './video-plan.js';
import { buildStoryboardVtt, spriteName } from './storyboard.js';

/** What media runners log through; pino's loggers fit. */
export interface MediaLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ToolOptions {
  tools: MediaTools;
  signal?: AbortSignal;
  /** Overrides the time limit derived from the source's duration. */
  timeoutMs?: number;
  onProgress?: (percent: number) => void;
  logger?: MediaLogger;
  /** Background work (storyboards, ladders) runs at the tools' background niceness. */
  background?: boolean;
}

/** Time limits grow with the source: a minute of slack plus a multiple of its duration. */
const limit = (opts: ToolOptions, source: ProbeResult, perSecondOfVideo: number) =>
  opts.timeoutMs ?? 60_000 + Math.ceil(source.duration * perSecondOfVideo * 1000);

async function ffmpeg(args: string[], source: ProbeResult, opts: ToolOptions, perSecond: number, what: string) {
  const started = Date.now();
  const onLine = opts.onProgress ? createProgressParser(source.duration, opts.onProgress) : undefined;
  opts.logger?.debug({ args }, `ffmpeg ${what}`);
  await opts.tools.ffmpeg(args, { signal: opts.signal, timeoutMs: limit(opts, source, perSecond), onStdoutLine: onLine, background: opts.background });
  opts.logger?.info({ ms: Date.now() - started, duration: source.duration }, `ffmpeg ${what} done`);
}

/** Copies an H.264/AAC mp4's streams into a fast-start mp4; returns the output's probe. */
export async function makeFastStart(input: string, output: string, source: ProbeResult, opts: ToolOptions): Promise<ProbeResult> {
  await ffmpeg(fastStartArgs(input, output), source, opts, 1, 'fast start');
  return probeMedia(output, opts);
}

export interface LadderResult {
  plan: LadderPlan;
  /** Master playlist, relative to outDir. */
  master: string;
  variants: VariantInfo[];
  /** Every file to publish, relative to outDir, master last. */
  files: string[];
}

/**
 * Encodes the HLS ladder into outDir (the audio once, then every rung's video in one ffmpeg process
 * that copies that audio into each), checks that every playlist names
 * files that exist, and writes the master playlist with measured bandwidths and exact codecs.
 */
export async function makeLadder(
  input: string,
  outDir: string,
  source: ProbeResult,
  opts: ToolOptions & { preset?: string; rungs?: readonly number[] },
): Promise<LadderResult> {
  // A source browsers play may give its own rung; that needs its keyframe times.
  const keyframes = isBrowserPlayable(source) && source.video?.rotation === 0 ? await readKeyframeTimes(input, opts) : null;
  const plan = planLadder(source, { keyframes, rungs: opts.rungs });
  await fs.mkdir(outDir, { recursive: true });
  const ffMaster = 'ffmpeg-master.m3u8';
  // Audio is encoded once, first: a small part of the work, so the first 5 % of the progress.
  const audio = plan.hasAudio ? path.join(outDir, 'ladder-audio.m4a') : undefined;
  const videoFrom = audio ? 5 : 0;
  const share = (from: number, to: number) => opts.onProgress && ((p: number) => opts.onProgress!(from + ((to - from) * p) / 100));
  try {
    if (audio) await ffmpeg(ladderAudioArgs(input, plan, audio), source, { ...opts, onProgress: share(0, videoFrom) }, 5, 'ladder audio');
    const args = ladderArgs(input, plan, { outDir, masterName: ffMaster, preset: opts.preset, audio });
    await ffmpeg(args, source, { ...opts, onProgress: share(videoFrom, 100) }, 30, 'ladder');
  } finally {
    if (audio) await fs.rm(audio, { force: true });
  }
  await fs.rm(path.join(outDir, ffMaster), { force: true });

  const variants: VariantInfo[] = [];
  const files: string[] = [];
  for (const rung of plan.rungs) {
    const playlistRel = `${rung.name}/index.m3u8`;
    const playlist = parseMediaPlaylist(await fs.readFile(path.join(outDir, playlistRel), 'utf8'));
    if (!playlist.initUri || playlist.segments.length === 0 || !playlist.ended) {
      throw new MediaError('failed', `The ${rung.name} playlist is incomplete`);
    }
    const init = await fs.readFile(path.join(outDir, rung.name, playlist.initUri));
    const segments = await Promise.all(
      playlist.segments.map(async (s) => ({ bytes: (await fs.stat(path.join(outDir, rung.name, s.uri))).size, duration: s.duration })),
    );
    const bw = measureBandwidth(segments, init.length);
    const video = avc1FromInitSegment(init);
    if (!video) throw new MediaError('failed', `The ${rung.name} init segment has no H.264 configuration`);
    variants.push({
      uri: playlistRel,
      width: rung.width,
      height: rung.height,
      bandwidth: bw.peak,
      averageBandwidth: bw.average,
      codecs: plan.hasAudio ? [video, AAC_LC_CODEC] : [video],
      frameRate: plan.fps,
    });
    files.push(`${rung.name}/${playlist.initUri}`, ...playlist.segments.map((s) => `${rung.name}/${s.uri}`), playlistRel);
  }
  const master = 'master.m3u8';
  await fs.writeFile(path.join(outDir, master), buildMasterPlaylist(variants));
  files.push(master);
  return { plan, master, variants, files };
}

export interface StoryboardResult {
  plan: StoryboardPlan;
  /** The WebVTT index, relative to outDir. */
  vtt: string;
  /** Every file to publish, relative to outDir, index last. */
  files: string[];
}

/** Makes the sprite sheets and their WebVTT index in outDir. */
export async function makeStoryboard(input: string, outDir: string, source: ProbeResult, opts: ToolOptions): Promise<StoryboardResult> {
  const plan = planStoryboard(source);
  await fs.mkdir(outDir, { recursive: true });
  await ffmpeg(storyboardArgs(input, plan, path.join(outDir, 'sprite-%d.jpg')), source, opts, 5, 'storyboard');
  const sheets: string[] = [];
  for (let i = 0; ; i++) {
    const name = spriteName(i);
    const exists = await fs.stat(path.join(outDir, name)).then(
      () => true,
      () => false,
    );
    if (!exists) break;
    sheets.push(name);
  }
  if (sheets.length === 0) throw new MediaError('failed', 'No storyboard frames could be extracted');
  // The index never points past the sheets ffmpeg actually wrote.
  const tiles = Math.min(plan.tiles, sheets.length * plan.columns * plan.rows);
  const vtt = 'storyboard.vtt';
  await fs.writeFile(path.join(outDir, vtt), buildStoryboardVtt(plan, source.duration, tiles));
  return { plan: { ...plan, tiles, sheets: sheets.length }, vtt, files: [...sheets, vtt] };
}
