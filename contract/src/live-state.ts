import { z } from 'zod';
import { IsoDate } from './common.js';

/** upcoming: made, no encoder has published yet; live: an encoder is publishing (or may reconnect); ended: over. */
export const LIVE_STATUSES = ['upcoming', 'live', 'ended'] as const;

/** What anyone who may see a live video is told of it (the `live` field of GET /videos/{id}). */
export const LiveState = z.object({
  status: z.enum(LIVE_STATUSES),
  scheduledStart: IsoDate.nullable(),
  startedAt: IsoDate.nullable(),
  endedAt: IsoDate.nullable(),
  viewers: z.number().int().min(0),
});
export type LiveState = z.infer<typeof LiveState>;
