import { z } from 'zod';
import { Id, IsoDate, MediaRef, PageInfo } from './common.js';

export const NOTIFICATION_KINDS = ['new_video', 'comment_reply', 'video_comment', 'upload_ready', 'upload_failed', 'live_started'] as const;

export const Notification = z.object({
  _id: Id,
  /**
   * new_video: a followed channel published a video; comment_reply: someone answered your comment;
   * video_comment: someone commented on your video; upload_ready / upload_failed: your upload's
   * processing ended (reason says why it failed); live_started: a followed channel went live (video is the live).
   */
  kind: z.enum(NOTIFICATION_KINDS),
  read: z.boolean(),
  createdAt: IsoDate,
  /** Who did it (the channel, the commenter); null for your own upload's outcome. */
  actor: z.object({ _id: Id, username: z.string(), fullName: z.string(), avatar: MediaRef }).nullable(),
  video: z.object({ _id: Id, title: z.string(), thumbnail: MediaRef }).nullable(),
  comment: z.object({ _id: Id, content: z.string(), parentId: Id.nullable() }).nullable(),
  reason: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationPage = PageInfo.extend({ notifications: z.array(Notification) });
export type NotificationPage = z.infer<typeof NotificationPage>;

export const UnreadCount = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof UnreadCount>;

export const MAX_MARK_READ_IDS = 100;
/** PATCH /notifications/read: the ids to mark read; none marks every notification read. */
export const MarkReadBody = z.object({
  ids: z.array(Id, { error: 'ids must be a list of notification ids' }).max(MAX_MARK_READ_IDS, `ids must hold at most ${MAX_MARK_READ_IDS} ids`).optional(),
});
export type MarkReadBody = z.infer<typeof MarkReadBody>;

export const MarkReadResult = z.object({ marked: z.number().int(), unreadCount: z.number().int() });
export type MarkReadResult = z.infer<typeof MarkReadResult>;

/** The data of a `notification` event on GET /notifications/stream. */
export const NotificationEvent = z.object({ notification: Notification, unreadCount: z.number().int() });
export type NotificationEvent = z.infer<typeof NotificationEvent>;
