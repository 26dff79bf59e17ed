import type { AppContext } from '../../src/app-context.js';
import type { Database } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import { refreshVideoAccess } from '../../src/db/video-access.js';

type VideoRow = Database['videos'];
let clock = Date.now();

/**
 * Inserts a ready, published video row owned by ownerId, straight into the database: enough for
 * the code that only reads video rows. No media files exist behind its keys.
 * Each seeded video is 1 ms newer than the previous one, so "newest first" is well defined.
 */
export async function seedVideo(ctx: AppContext, ownerId: string, overrides: Partial<VideoRow> = {}): Promise<VideoRow> {
  const owner = await ctx.db.selectFrom('users').select(['username', 'full_name']).where('id', '=', ownerId).executeTakeFirstOrThrow();
  const id = overrides.id ?? newId();
  const now = ++clock;
  const row: VideoRow = {
    id,
    owner_id: ownerId,
    title: `Video ${id}`,
    description: 'A seeded video',
    owner_text: `${owner.username} ${owner.full_name}`,
    duration: 12.5,
    views: 0,
    status: 'ready',
    progress: 100,
    failure_reason: null,
    visibility: 'public',
    publish_at: null,
    hidden_at: null,
    hidden_reason: null,
    appeal_text: null,
    appealed_at: null,
    listed: 0,
    watchable: 0,
    width: 640,
    height: 360,
    source_key: null,
    video_key: `videos/${id}/video.mp4`,
    hls_key: null,
    storyboard_key: null,
    thumbnail_key: `videos/${id}/thumbnail.webp`,
    source_bytes: 0,
    likes_count: 0,
    comments_count: 0,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await ctx.db.insertInto('videos').values(row).execute();
  // Seeded rows get their access flags and keep the channel and site counters right, as the real
  // upload path does.
  await refreshVideoAccess(ctx.db, { ownerId: row.owner_id, videoId: id });
  // As every real write does: signed-out answers kept before it are not served again.
  await ctx.answers.changed();
  return videoRow(ctx, id);
}

/**
 * Changes video rows straight in the database (visibility, status, a takedown...) and refreshes
 * their access flags and counters, as every real path that changes them does.
 */
export async function changeVideos(ctx: AppContext, ids: string[], patch: Partial<VideoRow>): Promise<void> {
  await ctx.db.updateTable('videos').set(patch).where('id', 'in', ids).execute();
  const owners = await ctx.db.selectFrom('videos').select('owner_id').distinct().where('id', 'in', ids).execute();
  for (const { owner_id } of owners) await refreshVideoAccess(ctx.db, { ownerId: owner_id });
  await ctx.answers.changed();
}

/** Reads a video row back, to check its counters. */
export function videoRow(ctx: AppContext, id: string) {
  return ctx.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** An id that is well-formed but names nothing. */
export const MISSING_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
