import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { newId } from '../../lib/ids.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import { liveMasterKey, type Storage, videoPrefix } from '../../storage/storage.js';
import type { VideoProcessing } from '../videos/video-processing.js';
import type { VideoRow, VideosRepository } from '../videos/videos.repository.js';
import type { LiveRepository } from './live.repository.js';
import type { LiveEvents } from './live-events.js';

export interface LiveReplayDeps {
  lives: Pick<LiveRepository, 'find' | 'nextSession'>;
  videos: Pick<VideosRepository, 'findById' | 'update' | 'refreshAccess' | 'deleteWithCascade' | 'insert'>;
  /** Where a recording is copied through on its way to a permanent live's new replay video. */
  tmpDir: string;
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
      if (live.save_replay === 1 && recordings.length > 0) await this.sessionReplay(video, recordings.at(-1)!);
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
    const latest = recordings.at(-1);
    if (!latest) return { removed: false };
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
