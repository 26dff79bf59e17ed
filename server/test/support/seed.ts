import type { AppContext } from '../../src/app-context.js';
import type { Database } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import { recountOwnerVideos } from '../../src/modules/videos/videos.repository.js';

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
    is_published: 1,
    width: 640,
    height: 360,
    source_key: null,
    video_key: `videos/${id}/video.mp4`,
    hls_key: null,
    storyboard_key: null,
    thumbnail_key: `videos/${id}/thumbnail.webp`,
    likes_count: 0,
    comments_count: 0,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  await ctx.db.insertInto('videos').values(row).execute();
  // Seeded rows keep the channel and site counters right, as the real upload path does.
  await recountOwnerVideos(ctx.db, row.owner_id);
  return row;
}

/** Reads a video row back, to check its counters. */
export function videoRow(ctx: AppContext, id: string) {
  return ctx.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** An id that is well-formed but names nothing. */
export const MISSING_ID = 'AAAAAAAAAAAAAAAAAAAAAAAA';
