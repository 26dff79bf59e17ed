import { z } from 'zod';
import { Id, IsoDate, PageInfo, PageQuery } from './common.js';
import { LiveState } from './live-state.js';
import { ChatSettings, MAX_SLOW_MODE_SECONDS } from './live-chat.js';
import { VideoDescription, VideoDetail, VideoSummary, VideoTitle, VideoVisibility } from './videos.js';

/** An ISO 8601 date and time with its offset; whether it lies ahead is the server's check. */
export const ScheduledStart = z.iso.datetime({
  offset: true,
  error: 'scheduledStart must be an ISO 8601 date and time, e.g. 2026-12-01T18:00:00Z',
});

/** Body of POST /live: a new live video. saveReplay keeps the recording as the video afterwards. */
export const CreateLiveBody = z.object({
  title: VideoTitle,
  description: VideoDescription,
  visibility: VideoVisibility.optional(),
  permanent: z.boolean({ error: 'permanent must be true or false' }).optional(),
  saveReplay: z.boolean({ error: 'saveReplay must be true or false' }).optional(),
  scheduledStart: ScheduledStart.optional(),
});
export type CreateLiveBody = z.infer<typeof CreateLiveBody>;

/**
 * Query of GET /live/{videoId}/publish (a WebSocket): the MIME type of what the browser's
 * MediaRecorder sends, e.g. `video/webm;codecs=vp8,opus` (H.264 is passed through, anything else re-encoded).
 */
export const BrowserPublishQuery = z.object({
  type: z
    .string({ error: 'type must be the MIME type of the recorded stream' })
    .max(100, 'type must be at most 100 characters')
    .regex(/^video\/(webm|mp4|x-matroska)(;.*)?$/i, 'type must be a video/webm or video/mp4 MIME type'),
});
export type BrowserPublishQuery = z.infer<typeof BrowserPublishQuery>;

/** Body of PATCH /live/{videoId}: at least one field. */
export const UpdateLiveBody = z
  .object({
    title: VideoTitle.optional(),
    description: VideoDescription.optional(),
    visibility: VideoVisibility.optional(),
    /** Seconds a viewer waits between two chat messages; 0 turns slow mode off. */
    slowModeSeconds: z
      .number({ error: 'slowModeSeconds must be a number' })
      .int('slowModeSeconds must be a whole number')
      .min(0, 'slowModeSeconds must be at least 0')
      .max(MAX_SLOW_MODE_SECONDS, `slowModeSeconds must be at most ${MAX_SLOW_MODE_SECONDS}`)
      .optional(),
  })
  .refine((b) => b.title !== undefined || b.description !== undefined || b.visibility !== undefined || b.slowModeSeconds !== undefined, {
    message: 'Give at least one of title, description, visibility, slowModeSeconds',
  });
export type UpdateLiveBody = z.infer<typeof UpdateLiveBody>;

/** Where an encoder publishes: `rtmp` is the server address, the stream key goes after it. */
export const LiveIngest = z.object({
  rtmp: z.string(),
  /** Whether a browser can publish to this site (GET /live/{videoId}/publish, a WebSocket): the ingest is on. */
  browser: z.boolean(),
});
export type LiveIngest = z.infer<typeof LiveIngest>;

/** What the encoder sends, as last seen; null fields until data arrived. */
export const LiveHealth = z.object({
  videoCodec: z.string().nullable(),
  audioCodec: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  frameRate: z.number().nullable(),
  /** Bits per second over the last few seconds. */
  bitrate: z.number().int().nullable(),
  lastDataAt: IsoDate.nullable(),
});
export type LiveHealth = z.infer<typeof LiveHealth>;

/** Answer of POST /live. */
export const CreatedLive = z.object({ video: VideoDetail, streamKey: z.string(), ingest: LiveIngest });
export type CreatedLive = z.infer<typeof CreatedLive>;

/** GET /live/{videoId}, for its owner and admins. */
export const LiveDetail = LiveState.extend({
  videoId: Id,
  permanent: z.boolean(),
  saveReplay: z.boolean(),
  streamKey: z.string(),
  ingest: LiveIngest,
  health: LiveHealth,
  chat: ChatSettings,
});
export type LiveDetail = z.infer<typeof LiveDetail>;

/** Answer of POST /live/{videoId}/key. */
export const LiveKey = z.object({ streamKey: z.string() });
export type LiveKey = z.infer<typeof LiveKey>;

/** GET /videos/live: most viewers first, paging only. */
export const LiveListQuery = PageQuery.pick({ pageNumber: true, pageSize: true });
export type LiveListQuery = z.infer<typeof LiveListQuery>;

export const LiveVideo = VideoSummary.extend({ live: LiveState });
export type LiveVideo = z.infer<typeof LiveVideo>;

export const LivePage = PageInfo.extend({ videos: z.array(LiveVideo) });
export type LivePage = z.infer<typeof LivePage>;
