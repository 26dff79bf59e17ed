import { z } from 'zod';
import { Id, IsoDate, MediaRef, PageInfo, PageQuery } from './common.js';

export const VIDEO_STATUSES = ['processing', 'ready', 'failed'] as const;
/** public: listed everywhere; unlisted: anyone with the link; private: the owner (and admins) only. */
export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export type VideoStatus = (typeof VIDEO_STATUSES)[number];
export const MAX_TITLE_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 5000;

export const VideoOwner = z.object({
  _id: Id,
  username: z.string(),
  fullName: z.string(),
  avatar: MediaRef,
});

/** What lists show: enough for a card. */
export const VideoSummary = z.object({
  _id: Id,
  title: z.string(),
  description: z.string(),
  duration: z.number(),
  views: z.number().int(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  /** SPEC.md's flag: false only for private videos. */
  isPublished: z.boolean(),
  visibility: z.enum(VISIBILITIES),
  status: z.enum(VIDEO_STATUSES),
  progress: z.number().int().min(0).max(100),
  thumbnail: MediaRef,
  videoFile: MediaRef,
  owner: VideoOwner,
});
export type VideoSummary = z.infer<typeof VideoSummary>;

/** What the player page needs in one round trip. */
export const VideoDetail = VideoSummary.extend({
  owner: VideoOwner.extend({ subscribersCount: z.number().int(), isSubscribed: z.boolean() }),
  likesCount: z.number().int(),
  commentsCount: z.number().int(),
  isLiked: z.boolean(),
  failureReason: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** HLS master playlist, present once the adaptive ladder exists. */
  hls: MediaRef.nullable(),
  /** WebVTT index of seek-preview sprite sheets, present once made. */
  storyboard: MediaRef.nullable(),
  /** Set while moderators have taken the video down; only its owner and staff can open it then. */
  takedown: z.object({ reason: z.string(), hiddenAt: IsoDate, appealedAt: IsoDate.nullable() }).nullable(),
});
export type VideoDetail = z.infer<typeof VideoDetail>;

export const VideoListQuery = PageQuery.extend({
  query: z.string().trim().max(200, 'query must be at most 200 characters').optional(),
  userId: Id.optional(),
});
export type VideoListQuery = z.infer<typeof VideoListQuery>;

export const VideoPage = PageInfo.extend({ videos: z.array(VideoSummary) });
export type VideoPage = z.infer<typeof VideoPage>;

export const VideoTitle = z
  .string({ error: 'title is required' })
  .trim()
  .min(1, 'title is required')
  .max(MAX_TITLE_LENGTH, `title must be at most ${MAX_TITLE_LENGTH} characters`);
export const VideoDescription = z
  .string({ error: 'description is required' })
  .trim()
  .min(1, 'description is required')
  .max(MAX_DESCRIPTION_LENGTH, `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

/** Text fields of POST /videos/ (multipart; videoFile and thumbnail are required files). */
export const CreateVideoFields = z.object({ title: VideoTitle, description: VideoDescription });
export type CreateVideoFields = z.infer<typeof CreateVideoFields>;

/** Text fields of PATCH /videos/{id} (multipart; thumbnail optional). */
export const UpdateVideoFields = z.object({
  title: VideoTitle.optional(),
  description: VideoDescription.optional(),
});
export type UpdateVideoFields = z.infer<typeof UpdateVideoFields>;

export const IdParams = z.object({ id: Id });
export const VideoIdParams = z.object({ videoId: Id });
