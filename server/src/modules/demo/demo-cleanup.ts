import type { CommentsService } from '../comments/comments.service.js';
import type { LikesService } from '../likes/likes.service.js';
import type { PlaylistsService } from '../playlists/playlists.service.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import type { VideosService } from '../videos/videos.service.js';
import type { DemoContentRepository } from './demo-content.repository.js';

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
export class DemoCleanup {
  constructor(
    private readonly deps: {
      content: DemoContentRepository;
      videos: Pick<VideosService, 'remove'>;
      comments: Pick<CommentsService, 'remove'>;
      likes: Pick<LikesService, 'toggle'>;
      playlists: Pick<PlaylistsService, 'remove'>;
      subscriptions: Pick<SubscriptionsService, 'toggle'>;
      /** How long the demo account's content stays. */
      contentTtlMs: number;
    },
  ) {}

  async purge(now = Date.now()): Promise<DemoCleanupResult> {
    const { content, videos, comments, likes, playlists, subscriptions } = this.deps;
    const cutoff = now - this.deps.contentTtlMs;
    const result: DemoCleanupResult = { videos: 0, comments: 0, playlists: 0, likes: 0, subscriptions: 0 };
    const attempt = async (key: keyof DemoCleanupResult, work: () => Promise<unknown>) => {
      try {
        await work();
        result[key]++;
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode !== 404) throw err;
      }
    };

    for (const { id: userId } of await content.demoUsers()) {
      // The clean-up acts as the demo account itself, with its rights and no more.
      const demo = { id: userId, role: 'user' } as const;
      const old = await content.writtenBefore(userId, cutoff);
      for (const c of old.comments) await attempt('comments', () => comments.remove(c.id, demo));
      for (const l of old.likes) await attempt('likes', () => likes.toggle(l.target_type, l.target_id, demo));
      for (const s of old.subscriptions) await attempt('subscriptions', () => subscriptions.toggle(userId, s.channel_id));
      for (const p of old.playlists) await attempt('playlists', () => playlists.remove(p.id, demo));
      for (const v of old.videos) await attempt('videos', () => videos.remove(v.id, demo));
      await content.forgetHistoryBefore(userId, cutoff);
    }
    return result;
  }
}
