import { type Notification, type NotificationPage, pageInfo, VIDEO_FAILURE_REASONS } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { type DefaultImages, defaultImages } from '../../lib/default-images.js';
import { newId, toIso } from '../../lib/ids.js';
import { noPersonalChanges, type PersonalChanges } from '../../lib/public-changes.js';
import type { Storage } from '../../storage/storage.js';
import { canWatch } from '../../db/video-access.js';
import type { NoticeBus } from './notice-bus.js';
import type { NotificationRow, NotificationsRepository, NotificationViewRow, VideoFacts } from './notifications.repository.js';

type NewNotice = Omit<NotificationRow, 'id' | 'read_at' | 'created_at'>;

/** How many recipients' kept notifications are made afresh at once (a round trip each with Redis). */
const PERSONAL_CHANGES_AT_ONCE = 100;

/**
 * Notifications: created once per event and recipient (the event key is unique per recipient),
 * never to the one who acted, never about what the recipient may not open; then carried live to
 * the recipient's open streams by the notice bus.
 */
export class NotificationsService {
  private readonly defaults: DefaultImages;

  constructor(
    private readonly deps: {
      notifications: NotificationsRepository;
      storage: Pick<Storage, 'url'>;
      bus: NoticeBus;
      logger: Logger;
      /** Told once a recipient's notifications changed (one stored, some read): answers kept for them go. */
      changes?: PersonalChanges;
      defaultImages?: DefaultImages;
      now?: () => number;
    },
  ) {
    this.defaults = deps.defaultImages ?? defaultImages();
  }

  private changes(): PersonalChanges {
    return this.deps.changes ?? noPersonalChanges;
  }

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  async list(userId: string, page: { pageNumber: number; pageSize: number }): Promise<NotificationPage> {
    const { rows, total } = await this.deps.notifications.page(userId, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    return { notifications: rows.map((r) => this.present(r)), ...pageInfo(total, page.pageNumber, page.pageSize) };
  }

  async unreadCount(userId: string): Promise<{ count: number }> {
    return { count: await this.deps.notifications.unreadCount(userId) };
  }

  async markRead(userId: string, ids?: string[]): Promise<{ marked: number; unreadCount: number }> {
    const marked = await this.deps.notifications.markRead(userId, ids, this.now());
    if (marked > 0) await this.changes().personalChanged(userId);
    return { marked, unreadCount: await this.deps.notifications.unreadCount(userId) };
  }

  async close(): Promise<void> {
    await this.deps.bus.close();
  }

  /** Listens for one user's new notifications once the bus delivers to this process. */
  async subscribe(userId: string, listener: Parameters<NoticeBus['subscribe']>[1]): Promise<() => void> {
    const unsubscribe = this.deps.bus.subscribe(userId, listener);
    await this.deps.bus.ready();
    return unsubscribe;
  }

  /** The video plays now: its owner hears so, and its channel's followers too when it is listed. */
  async videoReady(videoId: string): Promise<void> {
    const video = await this.deps.notifications.findVideo(videoId);
    if (!video || video.status !== 'ready') return;
    await this.create([
      {
        user_id: video.owner_id,
        kind: 'upload_ready',
        event_key: `upload_ready:${videoId}`,
        actor_id: null,
        video_id: videoId,
        comment_id: null,
        reason: null,
      },
    ]);
    await this.videoListed(video);
  }

  async videoFailed(videoId: string): Promise<void> {
    const video = await this.deps.notifications.findVideo(videoId);
    if (!video || video.status !== 'failed') return;
    await this.create([
      {
        user_id: video.owner_id,
        kind: 'upload_failed',
        event_key: `upload_failed:${videoId}`,
        actor_id: null,
        video_id: videoId,
        comment_id: null,
        reason: video.failure_reason ?? VIDEO_FAILURE_REASONS.unknown,
      },
    ]);
  }

  /**
   * Call whenever a video may have become listed (made ready, published, restored): the followers
   * of its channel are told once per video, whenever that first happens.
   */
  async videoListed(videoOrId: VideoFacts | string): Promise<void> {
    const video = typeof videoOrId === 'string' ? await this.deps.notifications.findVideo(videoOrId) : videoOrId;
    if (!video || video.listed !== 1) return;
    const followers = await this.deps.notifications.followers(video.owner_id);
    await this.create(
      followers
        .filter((id) => id !== video.owner_id)
        .map((userId) => ({
          user_id: userId,
          kind: 'new_video' as const,
          event_key: `new_video:${video.id}`,
          actor_id: video.owner_id,
          video_id: video.id,
          comment_id: null,
          reason: null,
        })),
    );
  }

  /**
   * A channel went live (an encoder admitted for a new session): its subscribers hear of it, once
   * per session (a permanent live has many), when the live is public.
   */
  async liveStarted(videoId: string): Promise<void> {
    const video = await this.deps.notifications.findVideo(videoId);
    const startedAt = await this.deps.notifications.liveStartedAt(videoId);
    if (!video || video.listed !== 1 || startedAt === null) return;
    const followers = await this.deps.notifications.followers(video.owner_id);
    await this.create(
      followers
        .filter((id) => id !== video.owner_id)
        .map((userId) => ({
          user_id: userId,
          kind: 'live_started' as const,
          event_key: `live_started:${video.id}:${startedAt}`,
          actor_id: video.owner_id,
          video_id: video.id,
          comment_id: null,
          reason: null,
        })),
    );
  }

  /** A comment was added: the author of the comment it answers, and the video's owner, hear of it. */
  async commented(event: { commentId: string; videoId: string; authorId: string; repliedToAuthorId: string | null }): Promise<void> {
    const video = await this.deps.notifications.findVideo(event.videoId);
    if (!video) return;
    const notices: NewNotice[] = [];
    const base = { actor_id: event.authorId, video_id: event.videoId, comment_id: event.commentId, reason: null };
    const replied = event.repliedToAuthorId;
    if (replied && replied !== event.authorId && (await this.mayOpen(video, replied))) {
      notices.push({ ...base, user_id: replied, kind: 'comment_reply', event_key: `comment_reply:${event.commentId}` });
    }
    // The owner answered in a thread of their own video is told once, as the one replied to.
    if (video.owner_id !== event.authorId && video.owner_id !== replied) {
      notices.push({ ...base, user_id: video.owner_id, kind: 'video_comment', event_key: `video_comment:${event.commentId}` });
    }
    await this.create(notices);
  }

  private async mayOpen(video: VideoFacts, userId: string): Promise<boolean> {
    const user = await this.deps.notifications.findUser(userId);
    return !!user && user.banned_at === null && canWatch(video, user);
  }

  /** Stores the notices not already stored, then tells each recipient's open streams. */
  private async create(notices: NewNotice[]): Promise<void> {
    if (!notices.length) return;
    const now = this.now();
    const rows = notices.map((n) => ({ ...n, id: newId(), read_at: null, created_at: now }));
    const inserted = new Set(await this.deps.notifications.insertNew(rows));
    const recipients = new Set(rows.filter((row) => inserted.has(row.id)).map((row) => row.user_id));
    // Each recipient's kept notifications are made afresh: a channel's followers in concurrent runs,
    // not one round trip after another.
    const changed = [...recipients];
    for (let i = 0; i < changed.length; i += PERSONAL_CHANGES_AT_ONCE) {
      await Promise.all(changed.slice(i, i + PERSONAL_CHANGES_AT_ONCE).map((userId) => this.changes().personalChanged(userId)));
    }
    for (const row of rows) {
      if (!inserted.has(row.id)) continue;
      try {
        const [view] = await this.deps.notifications.findViews(row.user_id, [row.id]);
        if (!view) continue;
        const unreadCount = await this.deps.notifications.unreadCount(row.user_id);
        await this.deps.bus.publish(row.user_id, { notification: this.present(view), unreadCount });
      } catch (err) {
        // The row is stored: the recipient sees it on the next fetch even if live delivery failed.
        this.deps.logger.warn({ err, notification: row.id }, 'could not deliver a notification live');
      }
    }
  }

  private present(r: NotificationViewRow): Notification {
    return {
      _id: r.id,
      kind: r.kind,
      read: r.read_at !== null,
      createdAt: toIso(Number(r.created_at)),
      actor:
        r.actor_id && r.actor_username
          ? {
              _id: r.actor_id,
              username: r.actor_username,
              fullName: r.actor_full_name ?? '',
              avatar: { url: r.actor_avatar_key ? this.deps.storage.url(r.actor_avatar_key) : this.defaults.avatar },
            }
          : null,
      video: r.video_id
        ? { _id: r.video_id, title: r.video_title ?? '', thumbnail: { url: r.video_thumbnail_key ? this.deps.storage.url(r.video_thumbnail_key) : '' } }
        : null,
      comment: r.comment_id ? { _id: r.comment_id, content: r.comment_content ?? '', parentId: r.comment_parent_id } : null,
      reason: r.reason,
    };
  }
}
