import { z } from 'zod';
import { IdParams } from './videos.js';

/**
 * Resumable uploads (tus 1.0.0 at /api/v1/uploads): the file arrives in as many PATCH requests as
 * the connection needs, then POST /uploads/{id}/video turns it into a video.
 */
export const UploadIdParams = IdParams;

/** GET /uploads/quota: the caller's storage quotas and what they use; -1 is unlimited. */
export const UploadQuota = z.object({
  quotaBytes: z.number().int(),
  dailyQuotaBytes: z.number().int(),
  usedBytes: z.number().int(),
  usedDailyBytes: z.number().int(),
  /** The largest single video file the site accepts. */
  maxUploadBytes: z.number().int(),
  /** An upload not turned into a video within this many hours is removed. */
  uploadExpiryHours: z.number(),
});
export type UploadQuota = z.infer<typeof UploadQuota>;
