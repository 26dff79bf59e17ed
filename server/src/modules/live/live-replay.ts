import type { Logger } from 'pino';
import type { PublicChanges } from '../../lib/public-changes.js';
import { liveMasterKey, type Storage, videoPrefix } from '../../storage/storage.js';
import type { VideoProcessing } from '../videos/video-processing.js';
import type { VideosRepository } from '../videos/videos.repository.js';
import type { LiveRepository } from './live.repository.js';

export interface LiveReplayDeps {
  lives: Pick<LiveRepository, 'find'>;
  videos: Pick<VideosRepository, 'findById' | 'update' | 'refreshAccess' | 'deleteWithCascade'>;
  processing: VideoProcessing;
  storage: Storage;
  changes: PublicChanges;
  logger: Logger;
}

/**
 * What an ended live becomes. With saveReplay, its latest recording becomes the video's source and
 * goes through the ordinary pipeline at the same id (processing, then ready with the usual ladder);
 * without it, the video is removed with everything under its prefix.
 */
export class LiveReplay {
  constructor(private readonly deps: LiveReplayDeps) {}

  /** Answers whether the video was removed. Tolerates a live or video deleted meanwhile. */
  async afterEnd(videoId: string): Promise<{ removed: boolean }> {
    const [live, video] = await Promise.all([this.deps.lives.find(videoId), this.deps.videos.findById(videoId)]);
    if (!live || !video || live.status !== 'ended') return { removed: false };
    if (live.save_replay !== 1) {
      await this.deps.videos.deleteWithCascade(videoId, video.owner_id);
      await this.deps.changes.changed();
      await this.deps.storage.deletePrefix(videoPrefix(videoId));
      return { removed: true };
    }
    // Already handed to the pipeline (an end told twice): nothing more to do.
    if (video.source_key) return { removed: false };
    const dir = liveMasterKey(videoId).replace(/master\.m3u8$/, '');
    const recordings = (await this.deps.storage.list(dir)).filter((k) => /\/recording-[a-z0-9]+\.mp4$/.test(k)).sort();
    const latest = recordings.at(-1);
    if (!latest) return { removed: false };
    const stored = await this.deps.storage.stat(latest);
    await this.deps.videos.update(videoId, { source_key: latest, source_bytes: stored?.size ?? 0, status: 'processing', progress: 0, updated_at: Date.now() });
    await this.deps.videos.refreshAccess(video.owner_id, videoId);
    await this.deps.processing.start(videoId);
    await this.deps.changes.changed();
    this.deps.logger.info({ videoId, recording: latest }, 'live replay handed to the pipeline');
    return { removed: false };
  }
}
