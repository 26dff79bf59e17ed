import type { VideoSummary } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import { DEFAULT_AVATAR_URL } from '../users/users.service.js';
import type { VideoSummaryRow } from './video-summary.query.js';

/** The fields that decide who may see a video. */
export interface VideoAccess {
  owner_id: string;
  is_published: number;
  status: string;
}

/**
 * A video that is unpublished or not ready exists only for its owner: everyone else gets a 404,
 * exactly as if it had never been uploaded.
 */
export function canSeeVideo(video: VideoAccess | undefined | null, viewerId: string | null): video is VideoAccess {
  if (!video) return false;
  return video.owner_id === viewerId || (video.is_published === 1 && video.status === 'ready');
}

/** A list card for a video row joined with its owner. */
export function presentVideoSummary(row: VideoSummaryRow, storage: Storage): VideoSummary {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    duration: Number(row.duration),
    views: Number(row.views),
    createdAt: toIso(Number(row.created_at)),
    updatedAt: toIso(Number(row.updated_at)),
    isPublished: row.is_published === 1,
    status: row.status,
    progress: row.progress,
    thumbnail: { url: storage.url(row.thumbnail_key) },
    // A video still being made has no playable file yet; the card shows the thumbnail only.
    videoFile: { url: row.video_key ? storage.url(row.video_key) : '' },
    owner: {
      _id: row.owner_id,
      username: row.owner_username,
      fullName: row.owner_full_name,
      avatar: { url: row.owner_avatar_key ? storage.url(row.owner_avatar_key) : DEFAULT_AVATAR_URL },
    },
  };
}
