import { type Caption, type LiveState, parseChapters, type VideoDetail, type VideoOwner, type VideoSummary } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import { liveMasterKey, type Storage } from '../../storage/storage.js';
import { type DefaultImages, defaultImages } from '../../lib/default-images.js';
import type { VideoDetailRow, VideoSummaryRow } from './videos.repository.js';

/** Rows to wire shapes. Media keys become URLs here and nowhere else. */
export class VideoPresenter {
  constructor(
    private readonly storage: Pick<Storage, 'url'>,
    private readonly defaults: DefaultImages = defaultImages(),
  ) {}

  private url(key: string | null): string {
    return key ? this.storage.url(key) : '';
  }

  summary(row: VideoSummaryRow): VideoSummary {
    return {
      _id: row.id,
      title: row.title,
      description: row.description,
      duration: Number(row.duration),
      views: Number(row.views),
      createdAt: toIso(Number(row.created_at)),
      updatedAt: toIso(Number(row.updated_at)),
      isPublished: row.visibility !== 'private',
      visibility: row.visibility,
      publishAt: row.publish_at !== null ? toIso(Number(row.publish_at)) : null,
      status: row.status,
      progress: row.progress,
      thumbnail: { url: this.url(row.thumbnail_key) },
      // Until processing has made the fast-start file the stored upload itself is served, so a
      // client that renders a player straight from the upload's answer never gets an empty source.
      videoFile: { url: this.url(row.video_key ?? row.source_key) },
      owner: this.owner(row),
      ...(row.remote_url ? { remote: true, url: row.remote_url } : {}),
    };
  }

  owner(row: Pick<VideoSummaryRow, 'owner_id' | 'owner_username' | 'owner_full_name' | 'owner_avatar_key'>): VideoOwner {
    return {
      _id: row.owner_id,
      username: row.owner_username,
      fullName: row.owner_full_name,
      avatar: { url: row.owner_avatar_key ? this.storage.url(row.owner_avatar_key) : this.defaults.avatar },
    };
  }

  detail(row: VideoDetailRow, viewer: { isLiked: boolean; isSubscribed: boolean; watchPosition: number | null }, captions: Caption[]): VideoDetail {
    const summary = this.summary(row);
    return {
      ...summary,
      owner: { ...summary.owner, subscribersCount: row.owner_subscribers_count, isSubscribed: viewer.isSubscribed },
      likesCount: row.likes_count,
      commentsCount: row.comments_count,
      sharesCount: Number(row.shares_count ?? 0),
      isLiked: viewer.isLiked,
      failureReason: row.failure_reason,
      width: row.width,
      height: row.height,
      // While on air the live playlist is the video's; once over, the replay's ladder (if any yet).
      hls: row.live_status === 'live' ? { url: this.storage.url(liveMasterKey(row.id)) } : row.hls_key ? { url: this.storage.url(row.hls_key) } : null,
      storyboard: row.storyboard_key ? { url: this.storage.url(row.storyboard_key) } : null,
      // Only the owner and staff can open a hidden video, so only they ever read this.
      takedown:
        row.hidden_at !== null
          ? { reason: row.hidden_reason ?? '', hiddenAt: toIso(row.hidden_at), appealedAt: row.appealed_at !== null ? toIso(row.appealed_at) : null }
          : null,
      watchPosition: viewer.watchPosition,
      chapters: parseChapters(summary.description, summary.duration),
      captions,
      ...(row.live_status ? { live: liveState(row) } : {}),
    };
  }
}

/** The live state of a row carrying a live's columns (a detail row, or a row of the live list). */
export function liveState(row: Pick<VideoDetailRow, 'live_status' | 'live_scheduled_start' | 'live_started_at' | 'live_ended_at' | 'live_viewers'>): LiveState {
  const iso = (ms: number | null) => (ms !== null ? toIso(Number(ms)) : null);
  return {
    status: row.live_status ?? 'ended',
    scheduledStart: iso(row.live_scheduled_start),
    startedAt: iso(row.live_started_at),
    endedAt: iso(row.live_ended_at),
    viewers: Number(row.live_viewers ?? 0),
  };
}
