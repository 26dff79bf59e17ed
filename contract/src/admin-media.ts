import { z } from 'zod';
import { Id, IsoDate, PageInfo } from './common.js';
import { AuditQuery } from './admin.js';
import { VISIBILITIES } from './videos.js';

/** Processing states an admin filters videos by; `hidden` is a takedown, whatever the processing state. */
export const ADMIN_VIDEO_STATUSES = ['processing', 'ready', 'failed', 'hidden'] as const;

export const AdminVideosQuery = z.object({
  status: z.enum(ADMIN_VIDEO_STATUSES, { error: `status must be one of ${ADMIN_VIDEO_STATUSES.join(', ')}` }).optional(),
  query: z.string().trim().max(100, 'query must be at most 100 characters').optional(),
  pageNumber: AuditQuery.shape.pageNumber,
  pageSize: AuditQuery.shape.pageSize,
});
export type AdminVideosQuery = z.infer<typeof AdminVideosQuery>;

/** A video as admins see it: every state, with why processing failed. */
export const AdminVideo = z.object({
  _id: Id,
  title: z.string(),
  status: z.enum(['processing', 'ready', 'failed']),
  progress: z.number().int(),
  /** Why processing failed (or why a later step gave up on a video that still plays). */
  failureReason: z.string().nullable(),
  visibility: z.enum(VISIBILITIES),
  hidden: z.boolean(),
  owner: z.object({ _id: z.string(), username: z.string() }),
  /** Size of the uploaded source, counted against its owner's quota. */
  sourceBytes: z.number().int(),
  duration: z.number(),
  /** Whether the uploaded source is still kept, so processing can run again. */
  canRetry: z.boolean(),
  createdAt: IsoDate,
});
export type AdminVideo = z.infer<typeof AdminVideo>;
export const AdminVideoPage = PageInfo.extend({ videos: z.array(AdminVideo) });
export type AdminVideoPage = z.infer<typeof AdminVideoPage>;

export const JOB_LANES = ['playable', 'live', 'background', 'federation'] as const;
export const JobLane = z.enum(JOB_LANES);

/** How many jobs wait, wait for a later time, run and have failed for good, per lane. */
export const JobLaneDepth = z.object({
  lane: JobLane,
  waiting: z.number().int(),
  delayed: z.number().int(),
  running: z.number().int(),
  failed: z.number().int(),
});
export type JobLaneDepth = z.infer<typeof JobLaneDepth>;

export const AdminJob = z.object({
  /** The queue's own id of the job (a BullMQ id carries its lane). */
  _id: z.string(),
  name: z.string(),
  lane: JobLane,
  state: z.enum(['waiting', 'delayed', 'running', 'failed']),
  videoId: z.string().nullable(),
  videoTitle: z.string().nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The job's own progress 0-100 while it runs, when the queue keeps it. */
  progress: z.number().int().nullable(),
  error: z.string().nullable(),
  updatedAt: IsoDate,
});
export type AdminJob = z.infer<typeof AdminJob>;

export const AdminJobs = z.object({
  /** Where the jobs are kept: the app's database (in-process queue) or Redis (BullMQ). */
  backend: z.enum(['database', 'redis']),
  lanes: z.array(JobLaneDepth),
  running: z.array(AdminJob),
  /** The most recent jobs that failed for good, newest first (at most 50). */
  failed: z.array(AdminJob),
});
export type AdminJobs = z.infer<typeof AdminJobs>;

export const JobIdParams = z.object({
  id: z.string().regex(/^[A-Za-z0-9:_-]{1,80}$/, 'Invalid job id'),
});
