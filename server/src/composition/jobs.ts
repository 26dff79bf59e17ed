import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/client.js';
import { BackupRunsRepository } from '../backup/backup-runs.repository.js';
import { takeBackup } from '../backup/take-backup.js';
import { createQueue } from '../jobs/create-queue.js';
import type { JobHandlers, JobQueue } from '../jobs/job-types.js';
import type { PublicChanges } from '../lib/public-changes.js';
import { childrenDieWithParent } from '../media/child-command.js';
import { createMediaTools, type MediaTools } from '../media/media-tools.js';
import { BackupJobs } from '../modules/backups/backup-jobs.js';
import { MailSender } from '../modules/mail/mail-outbox.js';
import { smtpSender } from '../modules/mail/mail-transport.js';
import { MailRepository } from '../modules/mail/mail.repository.js';
import { AccountMails } from '../modules/users/account-links.js';
import { AccountTokensRepository } from '../modules/users/account-tokens.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { TrendingJobs } from '../modules/discovery/trending-jobs.js';
import { InstanceService } from '../modules/instance/instance.service.js';
import { InstanceSettingsRepository } from '../modules/instance/instance-settings.repository.js';
import { VideoPipeline } from '../modules/pipeline/video-pipeline.js';
import { ScheduledPublishing } from '../modules/videos/scheduled-publishing.js';
import { ScheduledPublishingRepository } from '../modules/videos/scheduled-publishing.repository.js';
import { type VideoEvents, videoEventsOf } from '../modules/videos/video-events.js';
import { videoEventsForFederation } from '../modules/federation/video-delivery.js';
import type { Storage } from '../storage/storage.js';

/**
 * The queue, the video pipeline, scheduled publishing, trending's rebuilds, backups and mail, wired together the
 * same way in the API process and in a worker: a job that failed for good without its handler
 * knowing (its process died on the last attempt) still marks the video.
 */
export function createJobs(deps: {
  config: Config;
  database: DbHandle;
  storage: Storage;
  logger: Logger;
  workDir: string;
  /** The process's media tools; made from the configuration when not given. */
  media?: MediaTools;
  /** Who hears of videos besides federation (notifications do). */
  events?: Partial<VideoEvents>;
  /** Told when a job changes what visitors see: a video ready, failed or published. */
  changes: PublicChanges;
  /** The rungs admins chose for the ladder; a worker, which builds no services, reads the settings itself. */
  ladderRungs?: () => Promise<number[]>;
}): {
  queue: JobQueue;
  /** What every part of the process that changes a video tells: the given listeners, and federation's delivery jobs when it is on. */
  videoEvents: VideoEvents;
  pipeline: VideoPipeline;
  publishing: ScheduledPublishing;
  /** The trending list's rebuilds: a process that runs jobs also asks for them on schedule. */
  trending: TrendingJobs;
  /** Backups taken as jobs: on BACKUP_CRON's schedule (a process that runs jobs asks for them) and on an admin's request. */
  backups: BackupJobs;
  /** The ffmpeg and ffprobe the pipeline runs, for whatever else in the process needs them. */
  media: MediaTools;
  /** Every job's handler, for queue.start. */
  handlers(): JobHandlers;
} {
  const { config, database, storage, logger, workDir } = deps;
  // Both the API (probing uploads) and workers (transcoding) get here, under the same ceiling.
  const media = deps.media ?? createMediaTools(config);
  if (!childrenDieWithParent()) {
    logger.warn('setpriv (util-linux 2.33 or newer) was not found: ffmpeg may outlive this process if it is killed');
  }
  let pipeline: VideoPipeline | null = null;
  const queue = createQueue({
    redisUrl: config.redisUrl,
    db: database.db,
    dialect: database.dialect,
    logger,
    onSettled: (event) => {
      pipeline?.onJobSettled(event).catch((err) => logger.error({ err, job: event.id }, 'could not record a job failure'));
    },
  });
  const videoEvents = videoEventsOf(logger, deps.events, config.federation.enabled && config.publicUrl ? videoEventsForFederation(queue) : undefined);
  // A worker builds no services: it reads the rungs through a settings service of its own, built once.
  const settings = deps.ladderRungs ? null : new InstanceService({ settings: new InstanceSettingsRepository(database.db), config });
  const ladderRungs = deps.ladderRungs ?? (() => settings!.ladderRungs());
  pipeline = new VideoPipeline({
    db: database.db,
    storage,
    queue,
    media,
    logger,
    workDir,
    keepOriginalUploads: config.keepOriginalUploads,
    events: videoEvents,
    changes: deps.changes,
    ladderRungs,
  });
  const publishing = new ScheduledPublishing({
    videos: new ScheduledPublishingRepository(database.db),
    queue,
    logger,
    events: videoEvents,
    changes: deps.changes,
  });
  const trending = new TrendingJobs({ db: database.db, dialect: database.dialect, queue, logger, everyMs: config.trendingRefreshMs });
  const runs = new BackupRunsRepository(database.db);
  const backups = new BackupJobs({
    queue,
    runs,
    take: (opts) => takeBackup({ database, storage, config, runs }, { to: config.backups.dir, ...opts }),
    cron: config.backups.cron,
    keep: config.backups.keep,
    logger,
  });
  const accountMails = new AccountMails({
    users: new UsersRepository(database.db),
    tokens: new AccountTokensRepository(database.db),
    resetMs: config.passwordResetMs,
  });
  const mail = config.email
    ? new MailSender({
        mails: new MailRepository(database.db),
        compose: (m) => accountMails.compose(m),
        send: smtpSender(config.email.smtpUrl, config.email.from),
        logger,
      })
    : null;
  const video = pipeline;
  return {
    queue,
    videoEvents,
    pipeline,
    publishing,
    trending,
    backups,
    media,
    handlers: () => ({ ...video.handlers(), ...publishing.handlers(), ...trending.handlers(), ...backups.handlers(), ...mail?.handlers() }),
  };
}
