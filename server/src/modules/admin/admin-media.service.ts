import type { AdminJob, AdminJobs, AdminVideo, AdminVideosQuery } from '@reelhouse/contract';
import type { AuthUser } from '../../http/auth.js';
import { conflict, notFound } from '../../http/errors.js';
import { toIso } from '../../lib/ids.js';
import type { JobQueue, QueuedJob } from '../../jobs/job-types.js';
import type { VideoProcessing } from '../videos/video-processing.js';
import type { AuditLogRepository } from '../audit/audit-log.repository.js';
import type { AdminVideoRow, AdminVideosRepository } from './admin-videos.repository.js';

const videoIdOf = (job: QueuedJob): string | null => {
  const id = (job.payload as { videoId?: unknown } | null)?.videoId;
  return typeof id === 'string' ? id : null;
};

export interface AdminMediaDeps {
  videos: AdminVideosRepository;
  audit: AuditLogRepository;
  queue: Pick<JobQueue, 'overview' | 'findJob' | 'retryFailed'>;
  processing: Pick<VideoProcessing, 'retry'>;
}

/** Videos in every state and the job queue, as admins see them, and the retries they start. */
export class AdminMediaService {
  private readonly videos: AdminVideosRepository;

  constructor(private readonly deps: AdminMediaDeps) {
    this.videos = deps.videos;
  }

  async listVideos(q: AdminVideosQuery): Promise<{ total: number; videos: AdminVideo[] }> {
    const { total, rows } = await this.videos.list(q);
    return { total, videos: rows.map(presentVideo) };
  }

  /** Processing again from the kept upload: every step not yet done is queued through the pipeline. */
  async retryVideo(admin: AuthUser, id: string): Promise<AdminVideo> {
    const video = await this.videos.find(id);
    if (!video) throw notFound('Video');
    if (video.status !== 'failed') throw conflict('Only a video whose processing failed can be retried');
    if (!video.source_key) throw conflict('The uploaded file is gone, so the video cannot be processed again');
    await this.reopen(admin, id, 'video.retry', { failureReason: video.failure_reason });
    await this.deps.processing.retry(id);
    return presentVideo((await this.videos.find(id))!);
  }

  async jobs(): Promise<AdminJobs> {
    const o = await this.deps.queue.overview(50);
    const titles = await this.videos.titles([...new Set([...o.running, ...o.failed].map(videoIdOf).filter((v): v is string => v !== null))]);
    const present = (j: QueuedJob) => presentJob(j, titles);
    return {
      backend: o.backend,
      lanes: (Object.keys(o.lanes) as (keyof typeof o.lanes)[]).map((lane) => ({ lane, ...o.lanes[lane] })),
      running: o.running.map(present),
      failed: o.failed.map(present),
    };
  }

  /**
   * A failed job back in its lane with fresh attempts. A video job of a video that failed reopens
   * the video first (its handlers skip failed videos) and queues its other unfinished steps too.
   */
  async retryJob(admin: AuthUser, id: string): Promise<AdminJob> {
    const job = await this.deps.queue.findJob(id);
    if (!job) throw notFound('Job');
    if (job.state !== 'failed') throw conflict('Only a job that failed can be retried');
    const videoId = videoIdOf(job);
    const video = videoId ? await this.videos.find(videoId) : undefined;
    if (video?.status === 'failed' && !video.source_key) throw conflict('The uploaded file is gone, so the video cannot be processed again');
    const reopened =
      video?.status === 'failed' && video.source_key !== null
        ? await this.reopen(admin, video.id, 'video.retry', { failureReason: video.failure_reason, job: id })
        : false;
    const retried = await this.deps.queue.retryFailed(id);
    if (reopened) await this.deps.processing.retry(video!.id, retried ? job.name : undefined);
    if (!retried) throw conflict('Only a job that failed can be retried');
    await this.deps.audit.record(actorOf(admin), { action: 'job.retry', target: { type: 'job', id }, details: { name: job.name, videoId, error: job.error } });
    const after = (await this.deps.queue.findJob(id)) ?? { ...job, state: 'waiting' as const };
    return presentJob(after, await this.videos.titles(videoId ? [videoId] : []));
  }

  private async reopen(admin: AuthUser, videoId: string, action: string, details: Record<string, unknown>): Promise<boolean> {
    const reopened = await this.videos.reopenFailed(videoId, actorOf(admin), { action, target: { type: 'video', id: videoId }, details });
    if (!reopened) throw conflict('Only a video whose processing failed can be retried');
    return true;
  }
}

const actorOf = (u: AuthUser) => ({ id: u.id, username: u.username });

function presentVideo(r: AdminVideoRow): AdminVideo {
  return {
    _id: r.id,
    title: r.title,
    status: r.status,
    progress: Number(r.progress),
    failureReason: r.failure_reason,
    visibility: r.visibility,
    hidden: r.hidden_at !== null,
    owner: { _id: r.owner_id, username: r.owner_username },
    sourceBytes: Number(r.source_bytes),
    duration: Number(r.duration),
    canRetry: r.status === 'failed' && r.source_key !== null,
    createdAt: toIso(Number(r.created_at)),
  };
}

function presentJob(j: QueuedJob, titles: Map<string, string>): AdminJob {
  const videoId = videoIdOf(j);
  return {
    _id: j.id,
    name: j.name,
    lane: j.lane,
    state: j.state,
    videoId,
    videoTitle: videoId ? (titles.get(videoId) ?? null) : null,
    attempts: j.attempts,
    maxAttempts: j.maxAttempts,
    progress: j.progress,
    error: j.error,
    updatedAt: toIso(j.updatedAt),
  };
}
