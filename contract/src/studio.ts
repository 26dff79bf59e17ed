import { z } from 'zod';
import { PageInfo, PageQuery } from './common.js';
import { LiveState } from './live-state.js';
import { VIDEO_STATUSES, VideoSummary, VISIBILITIES } from './videos.js';

/** GET /studio/videos: the caller's own videos in every state, filtered and sorted. */
export const StudioVideoQuery = PageQuery.extend({
  status: z.enum(VIDEO_STATUSES, { error: `status must be one of ${VIDEO_STATUSES.join(', ')}` }).optional(),
  visibility: z.enum(VISIBILITIES, { error: `visibility must be one of ${VISIBILITIES.join(', ')}` }).optional(),
});
export type StudioVideoQuery = z.infer<typeof StudioVideoQuery>;

/** A row of the studio: the card's fields and the numbers and state only the owner sees. */
export const StudioVideo = VideoSummary.extend({
  likesCount: z.number().int(),
  commentsCount: z.number().int(),
  failureReason: z.string().nullable(),
  /** Set while moderators have taken the video down. */
  takenDown: z.boolean(),
  /** Present only for a live video, so the studio can list lives with their state. */
  live: LiveState.optional(),
});
export type StudioVideo = z.infer<typeof StudioVideo>;

export const StudioVideoPage = PageInfo.extend({ videos: z.array(StudioVideo) });
export type StudioVideoPage = z.infer<typeof StudioVideoPage>;
