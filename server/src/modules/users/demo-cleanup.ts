import type { AppContext } from '../../app-context.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { CommentsService } from '../comments/comments.service.js';
import { LikesRepository } from '../likes/likes.repository.js';
import { LikesService } from '../likes/likes.service.js';
import { PlaylistsRepository } from '../playlists/playlists.repository.js';
import { PlaylistsService } from '../playlists/playlists.service.js';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { createVideosService } from '../videos/videos.routes.js';
import { DemoContentRepository } from './demo-content.repository.js';

export interface DemoCleanupResult {
  videos: number;
  comments: number;
  playlists: number;
  likes: number;
  subscriptions: number;
}

/**
 * Removes what the demo account wrote once it is older than the configured time, through the same
 * services people use, so counters and files stay right. Safe to run from several processes: a
 * thing already removed by another is simply skipped.
 */
export async function purgeDemoContent(ctx: AppContext, now = Date.now()): Promise<DemoCleanupResult> {
  const repo = new DemoContentRepository(ctx.db);
  const videos = createVideosService(ctx);
  const comments = new CommentsService({ comments: new CommentsRepository(ctx.db), storage: ctx.storage, defaultImages: ctx.defaultImages, changes: ctx.answers });
  const playlists = new PlaylistsService({ playlists: new PlaylistsRepository(ctx.db), storage: ctx.storage, defaultImages: ctx.defaultImages, changes: ctx.answers });
  const likes = new LikesService({ likes: new LikesRepository(ctx.db), storage: ctx.storage, defaultImages: ctx.defaultImages, changes: ctx.answers });
  const subscriptions = new SubscriptionsService({ subscriptions: new SubscriptionsRepository(ctx.db), changes: ctx.answers });
  const cutoff = now - ctx.config.demo.contentTtlMs;
  const result: DemoCleanupResult = { videos: 0, comments: 0, playlists: 0, likes: 0, subscriptions: 0 };
  const attempt = async (key: keyof DemoCleanupResult, work: () => Promise<unknown>) => {
    try {
      await work();
      result[key]++;
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode !== 404) throw err;
    }
  };

  for (const { id: userId } of await repo.demoUsers()) {
    // The clean-up acts as the demo account itself, with its rights and no more.
    const demo = { id: userId, role: 'user' } as const;
    const old = await repo.writtenBefore(userId, cutoff);
    for (const c of old.comments) await attempt('comments', () => comments.remove(c.id, demo));
    for (const l of old.likes) await attempt('likes', () => likes.toggle(l.target_type, l.target_id, demo));
    for (const s of old.subscriptions) await attempt('subscriptions', () => subscriptions.toggle(userId, s.channel_id));
    for (const p of old.playlists) await attempt('playlists', () => playlists.remove(p.id, demo));
    for (const v of old.videos) await attempt('videos', () => videos.remove(v.id, demo));
    await repo.forgetHistoryBefore(userId, cutoff);
  }
  return result;
}
