import { z } from 'zod';
import { Chapter } from './chapters.js';
import { Caption, CaptionMatch } from './captions.js';
import { Id, IsoDate, MediaRef, PageInfo, PageQuery } from './common.js';
import { LiveState } from './live-state.js';

export const VIDEO_STATUSES = ['processing', 'ready', 'failed'] as const;
/** public: listed everywhere; unlisted: anyone with the link; private: the owner (and admins) only. */
export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const MAX_TITLE_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 5000;

export const VideoOwner = z.object({
  _id: Id,
  username: z.string(),
  fullName: z.string(),
  avatar: MediaRef,
});
export type VideoOwner = z.infer<typeof VideoOwner>;

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
  /** When a scheduled video turns public by itself (it stays private until then); null when none is set. */
  publishAt: IsoDate.nullable(),
  status: z.enum(VIDEO_STATUSES),
  progress: z.number().int().min(0).max(100),
  thumbnail: MediaRef,
  videoFile: MediaRef,
  owner: VideoOwner,
  /** Present, true, on a video of another server's channel: its media play from there. */
  remote: z.boolean().optional(),
  /** A remote video's page on its own site. */
  url: z.string().optional(),
  /**
   * Where the signed-in viewer stopped watching this video, in seconds; present (or null) only in
   * answers that know the viewer, absent otherwise.
   */
  watchPosition: z.number().min(0).nullable().optional(),
  /** In search results only, when the match came from the video's captions rather than its title or description. */
  captionMatch: CaptionMatch.optional(),
});
export type VideoSummary = z.infer<typeof VideoSummary>;

/**
 * Every text a video's `failureReason` (and an `upload_failed` notification's `reason`) holds. The
 * server writes them in English and answers them so, as clients match them; a client shows one in
 * its reader's language by finding it here (docs/decisions/0058).
 */
export const VIDEO_FAILURE_REASONS = {
  unreadable: 'The video file could not be read. It may be damaged or not a video.',
  noVideo: 'The file has no video track.',
  missingSource: 'The uploaded file is missing.',
  timeout: 'Processing took too long and was stopped.',
  failed: 'The video could not be processed.',
  /** A notification's reason for a video failed before reasons were kept. */
  unknown: 'Processing failed',
} as const;

/** What the player page needs in one round trip. */
export const VideoDetail = VideoSummary.extend({
  owner: VideoOwner.extend({ subscribersCount: z.number().int(), isSubscribed: z.boolean() }),
  likesCount: z.number().int(),
  commentsCount: z.number().int(),
  /** How many accounts of other servers shared it (an ActivityPub Announce: a boost on Mastodon). */
  sharesCount: z.number().int(),
  isLiked: z.boolean(),
  failureReason: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** HLS master playlist, present once the adaptive ladder exists (and while a live is on, its live playlist). */
  hls: MediaRef.nullable(),
  /** WebVTT index of seek-preview sprite sheets, present once made. */
  storyboard: MediaRef.nullable(),
  /** Set while moderators have taken the video down; only its owner and staff can open it then. */
  takedown: z.object({ reason: z.string(), hiddenAt: IsoDate, appealedAt: IsoDate.nullable() }).nullable(),
  /** Where the signed-in viewer stopped watching, in seconds (null signed out or never played). */
  watchPosition: z.number().min(0).nullable(),
  /** Chapters read from the description by YouTube's rules (see chapters.ts); [] when it has none. */
  chapters: z.array(Chapter),
  /** The video's caption tracks (WebVTT), one per language. */
  captions: z.array(Caption),
  /** Present only for a live video (upcoming, on air, or ended and not yet its replay). */
  live: LiveState.optional(),
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

/** The frame of a video to cut as its thumbnail, in seconds from the start. */
export const ThumbnailTime = z.coerce
  .number({ error: 'thumbnailTime must be a number of seconds' })
  .finite('thumbnailTime must be a number of seconds')
  .min(0, 'thumbnailTime must be at least 0');

/** An ISO 8601 date and time with its offset (2026-12-01T18:00:00Z); whether it lies ahead is the server's check. */
export const PublishAt = z.iso.datetime({ offset: true, error: 'publishAt must be an ISO 8601 date and time, e.g. 2026-12-01T18:00:00Z' });

export const VideoVisibility = z.enum(VISIBILITIES, { error: `visibility must be one of ${VISIBILITIES.join(', ')}` });

/**
 * Text fields of POST /videos/ and POST /uploads/{id}/video (multipart; videoFile is a required
 * file, thumbnail an image file required unless thumbnailTime is given). visibility defaults to
 * public; publishAt schedules the video (private until then, so visibility may only be left out or
 * be private with it); thumbnailTime cuts that frame of the uploaded video as its thumbnail.
 */
export const CreateVideoFields = z.object({
  title: VideoTitle,
  description: VideoDescription,
  visibility: VideoVisibility.optional(),
  publishAt: PublishAt.optional(),
  thumbnailTime: ThumbnailTime.optional(),
});
export type CreateVideoFields = z.infer<typeof CreateVideoFields>;

/**
 * Text fields of PATCH /videos/{id} (multipart; thumbnail optional). visibility sets it at once and
 * cancels a schedule; publishAt schedules the video: private until then, public from then on.
 * thumbnailTime cuts that frame of the video as its thumbnail (instead of an uploaded image).
 */
export const UpdateVideoFields = z.object({
  title: VideoTitle.optional(),
  description: VideoDescription.optional(),
  visibility: VideoVisibility.optional(),
  publishAt: PublishAt.optional(),
  thumbnailTime: ThumbnailTime.optional(),
});
export type UpdateVideoFields = z.infer<typeof UpdateVideoFields>;

export const IdParams = z.object({ id: Id });
export const VideoIdParams = z.object({ videoId: Id });

export const MAX_STATS_DAYS = 365;

/** GET /videos/{id}/stats: how many days back, today included. */
export const VideoStatsQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be a whole number' })
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(MAX_STATS_DAYS, `days must be at most ${MAX_STATS_DAYS}`)
    .default(28),
});
export type VideoStatsQuery = z.infer<typeof VideoStatsQuery>;

/** Views per UTC day, oldest first, every day present (zero when none), and the video's totals. */
export const VideoStats = z.object({
  days: z.array(z.object({ date: z.string(), views: z.number().int() })),
  totals: z.object({
    /** Views within the days asked for. */
    periodViews: z.number().int(),
    views: z.number().int(),
    likes: z.number().int(),
    comments: z.number().int(),
  }),
});
export type VideoStats = z.infer<typeof VideoStats>;

/** The furthest a saved position may be: a day of video, far beyond any upload. */
export const MAX_WATCH_POSITION = 86_400;

/** Optional body of PATCH /users/watch-history/{videoId}: where playback is, to resume from later. */
export const WatchPositionBody = z.object({
  position: z
    .number({ error: 'position must be a number of seconds' })
    .min(0, 'position must be at least 0')
    .max(MAX_WATCH_POSITION, `position must be at most ${MAX_WATCH_POSITION}`)
    .optional(),
});
export type WatchPositionBody = z.infer<typeof WatchPositionBody>;

export const MAX_RELATED = 24;
export const RelatedQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_RELATED, `limit must be at most ${MAX_RELATED}`)
    .default(12),
});
export type RelatedQuery = z.infer<typeof RelatedQuery>;

/** Up next: the videos to watch after this one, best first. */
export const RelatedVideos = z.object({ videos: z.array(VideoSummary) });
export type RelatedVideos = z.infer<typeof RelatedVideos>;

/** Trending is ranked by its score: paging only, no sort choice. */
export const TrendingQuery = PageQuery.pick({ pageNumber: true, pageSize: true });
export type TrendingQuery = z.infer<typeof TrendingQuery>;
