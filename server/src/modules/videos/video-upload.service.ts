import { CreateVideoFields, type VideoDetail } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { notFound, payloadTooLarge, unprocessable, unsupportedMediaType } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { MediaError } from '../../media/media-error.js';
import type { MediaTools } from '../../media/media-tools.js';
import { type ProbeResult, probeMedia } from '../../media/probe.js';
import { newId } from '../../lib/ids.js';
import { type Storage, videoPrefix } from '../../storage/storage.js';
import type { StorageQuota } from './storage-quota.js';
import { thumbnailFromFile } from './frame-thumbnail.js';
import type { PublishScheduler } from './scheduled-publishing.js';
import type { Viewer } from '../../db/video-access.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import { tell, type VideoEvents } from './video-events.js';
import { formatDuration, parseFields } from './video-fields.js';
import { BOTH_THUMBNAILS, scheduleTime, THUMBNAIL, thumbnailImage } from './video-options.js';
import type { VideoProcessing } from './video-processing.js';
import type { VideosRepository } from './videos.repository.js';

export interface VideoUploadDeps {
  videos: VideosRepository;
  storage: Storage;
  processing: VideoProcessing;
  logger: Logger;
  /** ffprobe checks uploads, ffmpeg cuts frames for thumbnails. */
  media: MediaTools;
  /** Scratch space (frames cut for thumbnails). */
  tmpDir: string;
  quota: StorageQuota;
  /** Told when an upload is ready at once; listeners tell followers only of a listed video. */
  events?: VideoEvents;
  publishing: PublishScheduler;
  /** Told after every write visitors could see; counted views are not told (kept answers lag by their TTL). */
  changes: PublicChanges;
  /** The clock that decides whether a publishAt lies ahead; tests inject one. */
  now?: () => number;
}

/** Optional text fields count as not given when blank, as a form sends an untouched input. */
const OPTIONAL = ['visibility', 'publishAt', 'thumbnailTime'];

/** Turning an uploaded file into a video: the checks, the stored files, the row, then processing. */
export class VideoUploads {
  private readonly now: () => number;

  /** `read` answers the new video as the player page would show it to its owner. */
  constructor(
    private readonly deps: VideoUploadDeps,
    private readonly read: (id: string, viewer: Viewer) => Promise<VideoDetail>,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Checks the upload (fields, an mp4 with a video stream by probing, a decodable thumbnail or a
   * frame within the video), stores the source and the thumbnail under the video's prefix, inserts
   * the row as processing with its visibility and schedule, and only after that commit queues the
   * schedule and starts processing. Any failure removes what was stored (and the row), so a
   * rejected upload leaves nothing behind; the caller removes the temporary files. The source must
   * fit the owner's storage quotas, unless `quotaHeld` says a resumable upload already reserved its
   * room when it started. A video created unlisted, private or scheduled is never listed at
   * creation, so followers hear of it only once it becomes public.
   */
  async create(
    owner: Viewer,
    rawFields: Record<string, string>,
    files: { videoFile?: UploadedFile; thumbnail?: UploadedFile },
    limits: { maxDurationSeconds: number | null } = { maxDurationSeconds: null },
    opts: { quotaHeld?: boolean } = {},
  ): Promise<VideoDetail> {
    const given = Object.fromEntries(Object.entries(rawFields).filter(([k, v]) => !OPTIONAL.includes(k) || v.trim() !== ''));
    const byFrame = given.thumbnailTime !== undefined;
    const fields = parseFields(CreateVideoFields, given, [
      ...(files.videoFile ? [] : [{ path: 'videoFile', message: 'videoFile is required' }]),
      ...(files.thumbnail || byFrame ? [] : [{ path: 'thumbnail', message: 'thumbnail is required' }]),
      ...(files.thumbnail && byFrame ? [{ path: 'thumbnailTime', message: BOTH_THUMBNAILS }] : []),
    ]);
    const publishAt = scheduleTime(fields, this.now()) ?? null;
    const visibility = publishAt !== null ? 'private' : (fields.visibility ?? 'public');
    const ownerId = owner.id;
    const ownerRow = await this.deps.videos.findOwner(ownerId);
    if (!ownerRow) throw notFound('User');
    const videoFile = files.videoFile!;
    if (!opts.quotaHeld) await this.deps.quota.assertRoom(ownerId, videoFile.size);
    const probe = await this.checkVideo(videoFile);
    if (limits.maxDurationSeconds !== null && probe.duration > limits.maxDurationSeconds) {
      throw payloadTooLarge(
        `videoFile is ${formatDuration(probe.duration)} long; the longest video this site accepts is ${formatDuration(limits.maxDurationSeconds)}`,
      );
    }
    // Cut from the file still on this machine, before anything is stored: a time past the end
    // refuses the upload with nothing to undo.
    const thumbnail =
      fields.thumbnailTime !== undefined
        ? await thumbnailFromFile(videoFile.path, fields.thumbnailTime, probe.duration, this.deps, THUMBNAIL)
        : await thumbnailImage(files.thumbnail!);

    const id = newId();
    const prefix = videoPrefix(id);
    const sourceKey = `${prefix}source.mp4`;
    const thumbnailKey = `${prefix}thumbnail-${newId()}.webp`;
    let inserted = false;
    try {
      await this.deps.storage.putFile(sourceKey, videoFile.path, 'video/mp4');
      await this.deps.storage.put(thumbnailKey, thumbnail, 'image/webp');
      const now = Date.now();
      await this.deps.videos.insert({
        id,
        owner_id: ownerId,
        title: fields.title,
        description: fields.description,
        owner_text: `${ownerRow.username} ${ownerRow.full_name}`,
        duration: probe.duration,
        views: 0,
        status: 'processing',
        progress: 0,
        failure_reason: null,
        visibility,
        publish_at: publishAt,
        hidden_at: null,
        hidden_reason: null,
        appeal_text: null,
        appealed_at: null,
        listed: 0,
        watchable: 0,
        width: probe.video!.width,
        height: probe.video!.height,
        source_key: sourceKey,
        video_key: null,
        hls_key: null,
        storyboard_key: null,
        thumbnail_key: thumbnailKey,
        source_bytes: videoFile.size,
        likes_count: 0,
        comments_count: 0,
        remote_object_id: null,
        remote_url: null,
        created_at: now,
        updated_at: now,
      });
      inserted = true;
      // A schedule nothing would carry out, or processing that could not even start, would leave
      // a video stuck forever: either failing undoes the upload.
      if (publishAt !== null) await this.deps.publishing.schedule(id, publishAt);
      await this.deps.processing.start(id);
    } catch (err) {
      if (inserted)
        await this.deps.videos.deleteWithCascade(id, ownerId).catch((e) => this.deps.logger.error({ err: e, videoId: id }, 'undoing upload failed'));
      await this.deps.storage.deletePrefix(prefix).catch((e) => this.deps.logger.error({ err: e, videoId: id }, 'removing upload failed'));
      throw err;
    }
    // Processing may already have made it ready (a source served as it is); the flags and the
    // channel count follow.
    await this.deps.videos.refreshAccess(ownerId, id);
    await this.deps.changes.changed();
    const events = this.deps.events;
    if (events) await tell(this.deps.logger, 'videoReady', () => events.videoReady(id));
    return this.read(id, owner);
  }

  /** An mp4 (by its content, not its name) with a video stream; otherwise 415 or 422. */
  async checkVideo(file: UploadedFile): Promise<ProbeResult> {
    let probe: ProbeResult;
    try {
      probe = await probeMedia(file.path, { tools: this.deps.media });
    } catch (err) {
      if (err instanceof MediaError && (err.kind === 'unreadable' || err.kind === 'timeout')) {
        throw unprocessable('videoFile is not a readable video');
      }
      if (err instanceof MediaError && err.kind === 'unsupported') throw unsupportedMediaType('videoFile must be an mp4 video');
      throw err;
    }
    if (!probe.isMp4 || !probe.video) throw unsupportedMediaType('videoFile must be an mp4 video');
    return probe;
  }
}
