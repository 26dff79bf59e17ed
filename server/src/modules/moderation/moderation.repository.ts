import type { Db } from '../../db/client.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { type Actor, AuditLogRepository, type AuditRecord } from '../audit/audit-log.repository.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';
import { type ReportRow, ReportsRepository, type ReportTarget } from './reports.repository.js';

type Closing = { state: 'resolved' | 'dismissed'; resolution: string };
type TakenDown = { id: string; owner_id: string };

/**
 * What moderators' actions write, each in one transaction with the reports it answers and its audit
 * line; and the previews of reported items the queue shows.
 */
export class ModerationRepository {
  constructor(private readonly db: Db) {}

  videoPreview(id: string) {
    return this.db
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select([
        'videos.title',
        'videos.description',
        'videos.thumbnail_key',
        'videos.hidden_at',
        'videos.hidden_reason',
        'videos.appeal_text',
        'users.id as owner_id',
        'users.username',
        'users.banned_at',
      ])
      .where('videos.id', '=', id)
      .executeTakeFirst();
  }

  commentPreview(id: string) {
    return this.db
      .selectFrom('comments')
      .innerJoin('users', 'users.id', 'comments.owner_id')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .select(['comments.content', 'videos.title', 'users.id as owner_id', 'users.username', 'users.banned_at'])
      .where('comments.id', '=', id)
      .executeTakeFirst();
  }

  async commentOwner(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('comments').select('owner_id').where('id', '=', id).executeTakeFirst();
    return row?.owner_id;
  }

  /** Closes a target's open reports with the audit line of what was done about them. */
  async closeReports(target: ReportTarget, closing: Closing, actor: Actor, audit: AuditRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await new ReportsRepository(trx).closeOpen(target, closing.state, closing.resolution, actor.id!);
      await new AuditLogRepository(trx).record(actor, audit);
    });
  }

  /** A takedown: the video hidden with the reason its owner sees, and a fresh chance to appeal. */
  async hideVideo(video: TakenDown, reason: string, actor: Actor): Promise<void> {
    const target = { type: 'video' as const, id: video.id };
    await this.db.transaction().execute(async (trx) => {
      await new VideoWritesRepository(trx).hide(video.id, reason, Date.now());
      await refreshVideoAccess(trx, { ownerId: video.owner_id, videoId: video.id });
      await new ReportsRepository(trx).closeOpen(target, 'resolved', 'hidden', actor.id!);
      await new AuditLogRepository(trx).record(actor, { action: 'video.hide', target, reason });
    });
  }

  /** A takedown lifted. */
  async restoreVideo(video: TakenDown, note: string | null, actor: Actor): Promise<void> {
    const target = { type: 'video' as const, id: video.id };
    await this.db.transaction().execute(async (trx) => {
      await new VideoWritesRepository(trx).unhide(video.id);
      await refreshVideoAccess(trx, { ownerId: video.owner_id, videoId: video.id });
      await new ReportsRepository(trx).closeOpen(target, 'resolved', 'restored', actor.id!);
      await new AuditLogRepository(trx).record(actor, { action: 'video.restore', target, reason: note });
    });
  }

  /**
   * The owner's appeal of a takedown, kept on the video and filed as an open report of it. Only a
   * video still taken down and not yet appealed takes it: false otherwise, and nothing is written.
   */
  async fileAppeal(report: ReportRow, actor: Actor): Promise<boolean> {
    const text = report.note;
    return this.db.transaction().execute(async (trx) => {
      if (!(await new VideoWritesRepository(trx).claimAppeal(report.target_id, text, report.created_at))) return false;
      await new ReportsRepository(trx).insert(report);
      await new AuditLogRepository(trx).record(actor, { action: 'video.appeal', target: { type: 'video', id: report.target_id }, reason: text });
      return true;
    });
  }
}
