import type { AppContext } from '../app-context.js';
import { LiveRepository } from '../modules/live/live.repository.js';
import { LiveService, type LiveServiceDeps } from '../modules/live/live.service.js';

/** The lives module's services, built from the context and what the videos and users modules give it. */
export function buildLive(ctx: AppContext, from: Pick<LiveServiceDeps, 'videos' | 'users' | 'present' | 'box'>): LiveService {
  return new LiveService({
    ...from,
    lives: new LiveRepository(ctx.db),
    storage: ctx.storage,
    changes: ctx.answers,
    rtmp: { port: ctx.config.live.rtmpPort, publicUrl: ctx.config.publicUrl },
  });
}
