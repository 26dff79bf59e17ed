import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { newId } from '../../lib/ids.js';
import { joinRecordings } from '../../media/broadcast.js';
import { fastStartArgs } from '../../media/ffmpeg-args.js';
import { parseMediaPlaylist } from '../../media/hls.js';
import type { MediaTools } from '../../media/media-tools.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import { liveMasterKey, type Storage, videoPrefix } from '../../storage/storage.js';
import type { VideoProcessing } from '../videos/video-processing.js';
import type { VideoRow, VideosRepository } from '../videos/videos.repository.js';
import type { LiveRepository } from './live.repository.js';
import type { LiveEvents } from './live-events.js';

export interface LiveReplayDeps {
  lives: Pick<LiveRepository, 'find' | 'nextSession'>;
  videos: Pick<VideosRepository, 'findById' | 'update' | 'refreshAccess' | 'deleteWithCascade' | 'insert'>;
  /** Where recordings are copied through (joined, or on their way to a permanent live's new replay video). */
  tmpDir: string;
  /** ffmpeg, which joins the recordings of a live whose key was renewed midway. */
  tools: MediaTools;
  processing: VideoProcessing;
  storage: Storage;
  changes: PublicChanges;
  logger: Logger;
  /** Told when a permanent live waits for its next session. */
  events: Pick<LiveEvents, 'status'>;
}

/**
 * What an ended live becomes. With saveReplay, its latest recording becomes the video's source and
 * goes through the ordinary pipeline at the same id (processing, then ready with the usual ladder);
 * without it, the video is removed with everything under its prefix. A permanent live stays: each
 * session's recording becomes a new video of its own (with saveReplay), and the live waits for the
 * next session with the same key.
 */
export class LiveReplay {
  constructor(private readonly deps: LiveReplayDeps) {}

  /** Answers whether the video was removed. Tolerates a live or video deleted meanwhile. */
  async afterEnd(videoId: string): Promise<{ removed: boolean }> {
    const [live, video] = await Promise.all([this.deps.lives.find(videoId), this.deps.videos.findById(videoId)]);
    if (!live || !video || live.status !== 'ended') return { removed: false };
    const dir = liveMasterKey(videoId).replace(/master\.m3u8$/, '');
    const recordings = (await this.deps.storage.list(dir)).filter((k) => /\/recording-[a-z0-9]+\.mp4$/.test(k)).sort();
    if (live.permanent === 1) {
      if (live.save_replay === 1 && recordings.length > 0) await this.sessionReplay(video, await this.whole(videoId, recordings));
      await this.deps.storage.deletePrefix(dir);
      await this.deps.lives.nextSession(videoId);
      await this.deps.changes.changed();
      await this.deps.events.status(videoId, 'upcoming');
      return { removed: false };
    }
    if (live.save_replay !== 1) {
      await this.deps.videos.deleteWithCascade(videoId, video.owner_id);
      await this.deps.changes.changed();
      await this.deps.storage.deletePrefix(videoPrefix(videoId));
      return { removed: true };
    }
    // Already handed to the pipeline (an end told twice): nothing more to do.
    if (video.source_key) return { removed: false };
    if (recordings.length === 0) return { removed: false };
    const latest = await this.whole(videoId, recordings);
    const stored = await this.deps.storage.stat(latest);
    await this.deps.videos.update(videoId, { source_key: latest, source_bytes: stored?.size ?? 0, status: 'processing', progress: 0, updated_at: Date.now() });
    await this.deps.videos.refreshAccess(video.owner_id, videoId);
    await this.deps.processing.start(videoId);
    await this.deps.changes.changed();
    this.deps.logger.info({ videoId, recording: latest }, 'live replay handed to the pipeline');
    // The broadcast is over and nothing points at its ladder any more; only the recording stays
    // (the pipeline's source, released with the other uploads' once the replay is made).
    const leftovers = (await this.deps.storage.list(dir)).filter((k) => k !== latest);
    for (const key of leftovers) await this.deps.storage.delete(key);
    return { removed: false };
  }

  /**
   * A live ended because its process died (found at the next start): its recording died with the
   * process's work directory, but its broadcast is in storage, so the top rung within the DVR
   * window becomes the recording, and the replay is made from it as after any end.
   */
  async afterCrash(videoId: string): Promise<{ removed: boolean }> {
    const dir = liveMasterKey(videoId).replace(/master\.m3u8$/, '');
    const keys = await this.deps.storage.list(dir);
    if (!keys.some((k) => /\/recording-[a-z0-9]+\.mp4$/.test(k)) && keys.includes(`${dir}r0/index.m3u8`)) {
      await this.recordingFromBroadcast(videoId, dir).catch((err: unknown) =>
        this.deps.logger.error({ err, videoId }, 'making a recording from the broadcast of a live cut short failed'),
      );
    }
    return this.afterEnd(videoId);
  }

  /** The top rung's stored segments remuxed (streams copied) into a fast-start mp4, stored as a recording. */
  private async recordingFromBroadcast(videoId: string, dir: string): Promise<void> {
    const work = await fs.mkdtemp(path.join(this.deps.tmpDir, `salvage-${videoId}-`));
    try {
      const listFile = path.join(work, 'index.m3u8');
      await this.deps.storage.download(`${dir}r0/index.m3u8`, listFile);
      const text = await fs.readFile(listFile, 'utf8');
      const list = parseMediaPlaylist(text);
      if (list.segments.length === 0) return;
      for (const name of [...(list.initUri ? [list.initUri] : []), ...list.segments.map((seg) => seg.uri)]) {
        await this.deps.storage.download(`${dir}r0/${name}`, path.join(work, name));
      }
      // Closed, or ffmpeg would wait for the live playlist to grow.
      await fs.writeFile(listFile, `${text.trimEnd()}\n#EXT-X-ENDLIST\n`);
      const mp4 = path.join(work, 'recording.mp4');
      await this.deps.tools.ffmpeg(fastStartArgs(listFile, mp4), { timeoutMs: 600_000 });
      await this.deps.storage.putFile(`${dir}recording-${Date.now().toString(36)}.mp4`, mp4, 'video/mp4');
      this.deps.logger.info({ videoId, segments: list.segments.length }, 'a recording made from the broadcast of a live cut short');
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  /**
   * The stored recording of the whole live: the only one, or all of them joined in order (a key
   * renewed midway starts a broadcast, and a recording, of its own). If they cannot be joined, the
   * latest stands alone, as before the renewal nothing of it would be kept either way.
   */
  private async whole(videoId: string, recordings: string[]): Promise<string> {
    const latest = recordings.at(-1)!;
    if (recordings.length === 1) return latest;
    const work = await fs.mkdtemp(path.join(this.deps.tmpDir, `recordings-${videoId}-`));
    try {
      const files = recordings.map((_, i) => path.join(work, `part-${i}.mp4`));
      await Promise.all(recordings.map((key, i) => this.deps.storage.download(key, files[i]!)));
      const joined = path.join(work, 'joined.mp4');
      await joinRecordings(files, joined, { tools: this.deps.tools, logger: this.deps.logger });
      // Named after the latest, so it sorts last and is what a second end would find.
      const key = latest.replace(/\.mp4$/, 'z.mp4');
      await this.deps.storage.putFile(key, joined, 'video/mp4');
      this.deps.logger.info({ videoId, parts: recordings.length }, 'live recordings joined for the replay');
      return key;
    } catch (err) {
      this.deps.logger.warn({ err, videoId }, 'the recordings of a live could not be joined: the replay is the latest alone');
      return latest;
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }

  /** A new video of the live's owner, with the live's text and visibility, made of this session's recording. */
  private async sessionReplay(live: VideoRow, recording: string): Promise<void> {
    const id = newId();
    const prefix = videoPrefix(id);
    const local = path.join(this.deps.tmpDir, `replay-${id}.mp4`);
    const thumb = path.join(this.deps.tmpDir, `replay-${id}.webp`);
    try {
      await this.deps.storage.download(recording, local);
      await this.deps.storage.download(live.thumbnail_key, thumb);
      const sourceKey = `${prefix}source.mp4`;
      const thumbnailKey = `${prefix}thumbnail-${newId()}.webp`;
      const stored = await this.deps.storage.putFile(sourceKey, local, 'video/mp4');
      await this.deps.storage.putFile(thumbnailKey, thumb, 'image/webp');
      const now = Date.now();
      // Named one by one: a row read back carries columns no insert may set (PostgreSQL's search vector).
      await this.deps.videos.insert({
        id,
        owner_id: live.owner_id,
        title: live.title,
        description: live.description,
        owner_text: live.owner_text,
        visibility: live.visibility,
        duration: 0,
        views: 0,
        status: 'processing',
        progress: 0,
        failure_reason: null,
        publish_at: null,
        hidden_at: null,
        hidden_reason: null,
        appeal_text: null,
        appealed_at: null,
        listed: 0,
        watchable: 0,
        width: null,
        height: null,
        source_key: sourceKey,
        video_key: null,
        hls_key: null,
        storyboard_key: null,
        thumbnail_key: thumbnailKey,
        source_bytes: stored.size,
        likes_count: 0,
        comments_count: 0,
        remote_object_id: null,
        remote_url: null,
        created_at: now,
        updated_at: now,
      });
      await this.deps.processing.start(id);
      this.deps.logger.info({ videoId: live.id, replayId: id }, 'permanent live session made into a video');
    } catch (err) {
      this.deps.logger.error({ err, videoId: live.id }, 'making a permanent live session into a video failed');
      await this.deps.storage.deletePrefix(prefix).catch(() => undefined);
    } finally {
      await fs.rm(local, { force: true });
      await fs.rm(thumb, { force: true });
    }
  }
}
