import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import {
  BROADCAST_RUNGS,
  BROADCAST_SEGMENT_SECONDS,
  type BroadcastInput,
  finishRecording,
  runBroadcast,
  type SourceVideo,
  topRungFor,
} from '../../media/broadcast.js';
import { FlvToMpegTs } from '../../media/flv-to-mpegts.js';
import { parseMediaPlaylist } from '../../media/hls.js';
import type { MediaTools } from '../../media/media-tools.js';
import { liveMasterKey, type Storage } from '../../storage/storage.js';

export interface LiveBroadcastsDeps {
  tools: MediaTools;
  storage: Storage;
  logger: Logger;
  /** This process's own work directory; each broadcast works in a folder of it. */
  workDir: string;
  /** Where this machine's ffmpeg reads a stream as a player. */
  rtmpUrl(streamKey: string): string;
  /** Minutes of the live a viewer can go back (the playlists' sliding window). */
  dvrMinutes: number;
  /** What the encoder said of its video, which decides whether it is passed through as the top rung. */
  sourceVideo(videoId: string): Promise<SourceVideo | null>;
  /** The live as FLV read inside this process, for a codec ffmpeg cannot read over RTMP (HEVC over enhanced RTMP). */
  flvStream(videoId: string): Readable | null;
  /** How long a segment that left the window stays stored, for players that loaded the playlist before. */
  expiredGraceMs?: number;
}

interface Running {
  streamKey: string;
  stop: AbortController;
  done: Promise<void>;
}

const PLAYLIST = 'application/vnd.apple.mpegurl';
const CONTENT_TYPES: Record<string, string> = { '.m4s': 'video/iso.segment', '.mp4': 'video/mp4', '.m3u8': PLAYLIST };

/** A segment that left the playlists stays this long: a player may have loaded the list just before. */
const EXPIRED_GRACE_MS = 30_000;

/**
 * The segments the playlists no longer name, so that the stored live keeps no more than the DVR
 * window (ffmpeg deletes them from its own folder; the copies in storage are ours to remove).
 */
export class SegmentWindow {
  private readonly listed = new Map<string, Set<string>>();
  private readonly leaving: { file: string; at: number }[] = [];

  constructor(
    private readonly graceMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Given the rung playlists just published, the files that left them more than the grace ago. */
  expired(playlists: Record<string, string>): string[] {
    const now = this.now();
    for (const [rel, text] of Object.entries(playlists)) {
      if (rel === 'master.m3u8') continue;
      const dir = path.posix.dirname(rel);
      const names = new Set(parseMediaPlaylist(text).segments.map((s) => `${dir}/${s.uri}`));
      for (const file of this.listed.get(rel) ?? []) if (!names.has(file)) this.leaving.push({ file, at: now });
      this.listed.set(rel, names);
    }
    let n = 0;
    while (n < this.leaving.length && now - this.leaving[n]!.at >= this.graceMs) n++;
    return this.leaving.splice(0, n).map((l) => l.file);
  }
}

/**
 * One ffmpeg per live while an encoder publishes: it reads the stream from this machine's RTMP
 * server and writes the ladder, and every file is put under the video's `broadcast/` prefix as it
 * appears (segments before the playlists that name them, the master once every rung has a segment).
 * The recording of the stream as it arrived is stored beside them as an mp4 when the broadcast
 * stops, for the replay.
 */
export class LiveBroadcasts {
  private readonly running = new Map<string, Running>();
  /** Each live's starts and stops in turn, the last one's end: see `inTurn`. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly deps: LiveBroadcastsDeps) {}

  /**
   * Starts the broadcast of a live; an encoder resuming on the same key keeps the one running.
   * Starting waits (for the encoder's metadata, for storage), so an encoder that drops and comes
   * straight back could start a second ffmpeg beside the first; a live's starts and stops therefore
   * run one after the other, and the second start finds the first one's broadcast.
   */
  start(videoId: string, streamKey: string): Promise<void> {
    return this.inTurn(videoId, () => this.startNow(videoId, streamKey));
  }

  private inTurn(videoId: string, work: () => Promise<void>): Promise<void> {
    const result = (this.turns.get(videoId) ?? Promise.resolve()).then(work);
    const settled = result.catch(() => {});
    this.turns.set(videoId, settled);
    void settled.then(() => {
      if (this.turns.get(videoId) === settled) this.turns.delete(videoId);
    });
    return result;
  }

  private async startNow(videoId: string, streamKey: string): Promise<void> {
    const current = this.running.get(videoId);
    if (current?.streamKey === streamKey) return;
    if (current) await this.stopNow(videoId);
    const session = Date.now().toString(36);
    const dir = path.join(this.deps.workDir, 'live', `${videoId}-${session}`);
    await fs.mkdir(dir, { recursive: true });
    const stop = new AbortController();
    const prefix = liveMasterKey(videoId).replace(/master\.m3u8$/, '');
    const { storage, logger } = this.deps;
    const source = await this.deps.sourceVideo(videoId);
    const top = topRungFor(source);
    // This machine's ffmpeg (5.1) reads H.264 over RTMP but not enhanced RTMP's HEVC: that is read
    // here and handed over as MPEG-TS, its timestamps kept.
    let input: BroadcastInput = this.deps.rtmpUrl(streamKey);
    let flv: Readable | null = null;
    if (source?.codec === 'hevc') {
      flv = this.deps.flvStream(videoId);
      if (flv) input = { stream: flv.pipe(new FlvToMpegTs({ audio: true })), format: 'mpegts' };
    }
    if (top !== 'copy') logger.info({ videoId, top }, 'live source beyond what is passed through: its top rung is encoded again');
    const window = new SegmentWindow(this.deps.expiredGraceMs ?? EXPIRED_GRACE_MS);
    const done = runBroadcast(
      input,
      dir,
      {
        top,
        rungs: BROADCAST_RUNGS,
        listSize: Math.max(1, Math.round((this.deps.dvrMinutes * 60) / BROADCAST_SEGMENT_SECONDS)),
        recording: 'recording.ts',
      },
      {
        tools: this.deps.tools,
        signal: stop.signal,
        logger,
        async onUpdate(update) {
          for (const file of update.newFiles) {
            await storage.putFile(prefix + file, path.join(update.dir, file), CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
          }
          for (const [rel, text] of Object.entries(update.playlists)) await storage.put(prefix + rel, Buffer.from(text, 'utf8'), PLAYLIST);
          for (const file of window.expired(update.playlists)) {
            await storage.delete(prefix + file).catch((err: unknown) => logger.warn({ err, videoId, file }, 'removing a segment past the DVR window failed'));
          }
        },
      },
    )
      .catch((err: unknown) => logger.error({ err, videoId }, 'live broadcast failed'))
      .then(async () => {
        const mp4 = path.join(dir, 'recording.mp4');
        if (await finishRecording(path.join(dir, 'recording.ts'), mp4, { tools: this.deps.tools, logger }))
          await storage.putFile(`${prefix}recording-${session}.mp4`, mp4, 'video/mp4');
      })
      .catch((err: unknown) => logger.error({ err, videoId }, 'storing a live recording failed'))
      .finally(async () => {
        flv?.destroy();
        if (this.running.get(videoId)?.done === done) this.running.delete(videoId);
        await fs.rm(dir, { recursive: true, force: true });
      });
    this.running.set(videoId, { streamKey, stop, done });
  }

  /** Stops a live's broadcast, if one runs (or is starting), and waits until what it made is stored. */
  stop(videoId: string): Promise<void> {
    return this.inTurn(videoId, () => this.stopNow(videoId));
  }

  private async stopNow(videoId: string): Promise<void> {
    const current = this.running.get(videoId);
    if (!current) return;
    current.stop.abort();
    await current.done;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...new Set([...this.running.keys(), ...this.turns.keys()])].map((id) => this.stop(id)));
  }
}
