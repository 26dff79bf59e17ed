import { z } from 'zod';
import { Id, IsoDate, MediaRef, PageInfo } from './common.js';
import { VideoOwner, VideoSummary, VISIBILITIES } from './videos.js';

export const MAX_COMMENT_LENGTH = 2000;

export const CommentBody = z.object({
  content: z
    .string({ error: 'content is required' })
    .trim()
    .min(1, 'content is required')
    .max(MAX_COMMENT_LENGTH, `content must be at most ${MAX_COMMENT_LENGTH} characters`),
});
export type CommentBody = z.infer<typeof CommentBody>;

/** POST /comments/{videoId}: a reply names the comment it answers (a reply to a reply joins its thread). */
export const NewCommentBody = CommentBody.extend({ parentId: Id.optional() });
export type NewCommentBody = z.infer<typeof NewCommentBody>;

export const Comment = z.object({
  _id: Id,
  content: z.string(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  video: Id,
  owner: z.object({ _id: Id, username: z.string(), fullName: z.string(), avatar: MediaRef }),
  likesCount: z.number().int(),
  isLiked: z.boolean(),
  /** The top-level comment this one replies to; null for a top-level comment. */
  parentId: Id.nullable(),
  /** Replies shown under a top-level comment (always 0 for a reply). */
  replyCount: z.number().int(),
  /** Pinned by the video's owner: shown first. */
  isPinned: z.boolean(),
  /** Given a heart by the video's owner. */
  isHearted: z.boolean(),
  /** Present, true, on a comment another server sent (its author's username is then `name@host`). */
  remote: z.boolean().optional(),
  /** A remote comment's page on its own site. */
  url: z.string().optional(),
});
export type Comment = z.infer<typeof Comment>;

export const CommentPage = PageInfo.extend({ comments: z.array(Comment) });
export type CommentPage = z.infer<typeof CommentPage>;

export const LIKE_TARGETS = ['video', 'comment'] as const;
export type LikeTarget = (typeof LIKE_TARGETS)[number];
export const ContentType = z.enum(LIKE_TARGETS, { error: 'contentType must be one of video, comment' });

export const LikeToggleResult = z.object({ liked: z.boolean(), likesCount: z.number().int() });
export type LikeToggleResult = z.infer<typeof LikeToggleResult>;

export const SubscriberCount = z.object({ count: z.number().int() });

export const MAX_PLAYLIST_NAME = 100;
export const MAX_PLAYLIST_DESCRIPTION = 1000;
export const PlaylistName = z
  .string({ error: 'name is required' })
  .trim()
  .min(1, 'name is required')
  .max(MAX_PLAYLIST_NAME, `name must be at most ${MAX_PLAYLIST_NAME} characters`);
export const PlaylistDescription = z
  .string({ error: 'description is required' })
  .trim()
  .min(1, 'description is required')
  .max(MAX_PLAYLIST_DESCRIPTION, `description must be at most ${MAX_PLAYLIST_DESCRIPTION} characters`);

export const CreatePlaylistBody = z.object({ name: PlaylistName, description: PlaylistDescription });
export type CreatePlaylistBody = z.infer<typeof CreatePlaylistBody>;

/**
 * public: on the owner's channel for everyone; unlisted: anyone with the link; private: the owner
 * only. A playlist starts private.
 */
export const PlaylistVisibility = z.enum(VISIBILITIES, { error: `visibility must be one of ${VISIBILITIES.join(', ')}` });
export type PlaylistVisibility = z.infer<typeof PlaylistVisibility>;

/** SPEC.md's {updatedPlaylist}: any of the fields, at least one. */
export const UpdatePlaylistBody = z
  .object({ name: PlaylistName.optional(), description: PlaylistDescription.optional(), visibility: PlaylistVisibility.optional() })
  .refine((b) => b.name !== undefined || b.description !== undefined || b.visibility !== undefined, {
    message: 'No update value provided.',
  });
export type UpdatePlaylistBody = z.infer<typeof UpdatePlaylistBody>;

export const Playlist = z.object({
  _id: Id,
  name: z.string(),
  description: z.string(),
  owner: Id,
  visibility: z.enum(VISIBILITIES),
  videosCount: z.number().int(),
  /** Video ids in playlist order. */
  videos: z.array(Id),
  /** The first shown video's thumbnail, for a card; null when the caller sees no video in it. */
  thumbnail: MediaRef.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Playlist = z.infer<typeof Playlist>;

/**
 * GET /playlist/{id}: the playlist with its videos as objects, in playlist order, and who made it
 * (for a player's playlist panel).
 */
export const PlaylistDetail = Playlist.extend({ videos: z.array(VideoSummary), ownerProfile: VideoOwner });
export type PlaylistDetail = z.infer<typeof PlaylistDetail>;

/** A channel the caller follows, as the sidebar lists it. */
export const FollowedChannel = z.object({
  _id: Id,
  username: z.string(),
  fullName: z.string(),
  avatar: MediaRef,
  subscribedAt: IsoDate,
});
export type FollowedChannel = z.infer<typeof FollowedChannel>;

/** GET /subscriptions/user/channels: the followed channels by username, paged. */
export const FollowedChannelPage = PageInfo.extend({ channels: z.array(FollowedChannel) });
export type FollowedChannelPage = z.infer<typeof FollowedChannelPage>;
