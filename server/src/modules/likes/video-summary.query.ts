import { type RawBuilder, sql, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The columns a video card needs, from `videos` joined with `users as owner`. */
export const VIDEO_SUMMARY_COLUMNS = [
  'videos.id',
  'videos.title',
  'videos.description',
  'videos.duration',
  'videos.views',
  'videos.created_at',
  'videos.updated_at',
  'videos.is_published',
  'videos.status',
  'videos.progress',
  'videos.thumbnail_key',
  'videos.video_key',
  'videos.owner_id',
  'owner.username as owner_username',
  'owner.full_name as owner_full_name',
  'owner.avatar_key as owner_avatar_key',
] as const;

type V = Database['videos'];
export interface VideoSummaryRow
  extends Pick<V, 'id' | 'title' | 'description' | 'duration' | 'views' | 'created_at' | 'updated_at' | 'is_published' | 'status' | 'progress' | 'thumbnail_key' | 'video_key' | 'owner_id'> {
  owner_username: string;
  owner_full_name: string;
  owner_avatar_key: string | null;
}

/**
 * SQL twin of canSeeVideo, for any query that has `videos` in scope: published and ready, or the
 * viewer's own. Plain SQL so it fits queries with any set of joined tables.
 */
export function videoVisibleTo(viewerId: string | null): RawBuilder<SqlBool> {
  const open = sql<SqlBool>`(videos.is_published = 1 and videos.status = 'ready')`;
  return viewerId ? sql<SqlBool>`(${open} or videos.owner_id = ${viewerId})` : open;
}
