import type { ModerationBody, Report, ReportBody, ReportGroup } from '@reelhouse/contract';
import type { AppContext } from '../../app-context.js';
import type { SessionService } from '../users/session.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import { videoPrefix } from '../../storage/storage.js';
import { type Actor, recordAudit } from '../audit/audit-log.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { canWatch, refreshVideoAccess } from '../../db/video-access.js';
import { tell } from '../videos/video-events.js';
import { VideosRepository } from '../videos/videos.repository.js';
import { setBanned } from './bans.js';
import { type ReportRow, ReportsRepository, type ReportState } from './reports.repository.js';

const QUEUE_LIMIT = 1000;
const TARGET_NAMES = { video: 'video', comment: 'comment', channel: 'channel' } as const;

const actorOf = (user: AuthUser): Actor => ({ id: user.id, username: user.username });

/**
 * Reports, the moderation queue, takedowns, appeals and bans. Every action closes the target's open
 * reports and writes an audit line; what a takedown or ban hides is decided by the access rules
 * (video-access.ts, standing-rules.ts), never here.
 */
export class ModerationService {
  private readonly reports: ReportsRepository;
  private readonly videos: VideosRepository;
  private readonly comments: CommentsRepository;

  constructor(private readonly ctx: AppContext & { sessions: SessionService; notifications: NotificationsService }) {
    this.reports = new ReportsRepository(ctx.db);
    this.videos = new VideosRepository(ctx.db, ctx.dialect);
    this.comments = new CommentsRepository(ctx.db);
  }

  async report(user: AuthUser, body: ReportBody): Promise<Report> {
    const ownerId = await this.visibleTargetOwner(user, body.targetType, body.targetId);
    if (ownerId === user.id) throw badRequest(`You cannot report your own ${TARGET_NAMES[body.targetType]}`);
    if (await this.reports.findOpen(user.id, body.targetType, body.targetId)) {
      throw conflict(`You have already reported this ${TARGET_NAMES[body.targetType]}`);
    }
    const row: ReportRow = {
      id: newId(), reporter_id: user.id, target_type: body.targetType, target_id: body.targetId, reason: body.reason,
      note: body.note, state: 'open', resolution: null, resolved_by: null, resolved_at: null, created_at: Date.now(),
    };
    // Two reports racing past the check above: the partial unique index keeps one.
    await this.reports.insert(row).catch(async (err) => {
      if (await this.reports.findOpen(user.id, body.targetType, body.targetId)) throw conflict(`You have already reported this ${TARGET_NAMES[body.targetType]}`);
      throw err;
    });
    return presentReport(row);
  }

  /** The owner of a target the user can see, or 404: nobody reports what they cannot see. */
  private async visibleTargetOwner(user: AuthUser, type: ReportRow['target_type'], id: string): Promise<string> {
    if (type === 'video') {
      const video = await this.comments.findVideoAccess(id);
      if (!video || !canWatch(video, user)) throw notFound('Video');
      return video.owner_id;
    }
    if (type === 'comment') {
      const comment = await this.comments.findAccess(id);
      const author = comment && await this.ctx.db.selectFrom('users').select('banned_at').where('id', '=', comment.owner_id).executeTakeFirst();
      if (!comment || !canWatch(comment.video, user) || author?.banned_at !== null) throw notFound('Comment');
      return comment.owner_id;
    }
    const channel = await this.ctx.db.selectFrom('users').select(['id', 'banned_at']).where('id', '=', id).executeTakeFirst();
    if (!channel || channel.banned_at !== null) throw notFound('Channel');
    return channel.id;
  }

  /** Reports in one state grouped by target, the most recently reported first, with a preview of each. */
  async queue(state: ReportState): Promise<ReportGroup[]> {
    const rows = await this.reports.list(state, QUEUE_LIMIT);
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const key = `${r.target_type}:${r.target_id}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    const out: ReportGroup[] = [];
    for (const list of groups.values()) {
      const first = list[0]!;
      const reasons: Record<string, number> = {};
      for (const r of list) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
      out.push({
        targetType: first.target_type,
        targetId: first.target_id,
        count: list.length,
        reasons,
        preview: await this.preview(first.target_type, first.target_id),
        reports: list.map((r) => ({ ...presentReport(r), reporter: { _id: r.reporter_id, username: r.reporter_username } })),
        lastReportedAt: toIso(Number(first.created_at)),
      });
    }
    return out;
  }

  private async preview(type: ReportRow['target_type'], id: string): Promise<ReportGroup['preview']> {
    const db = this.ctx.db;
    const gone = { title: `Deleted ${type}`, text: '', thumbnail: null, owner: null, hidden: null, exists: false };
    if (type === 'video') {
      const v = await db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id')
        .select(['videos.title', 'videos.description', 'videos.thumbnail_key', 'videos.hidden_at', 'videos.hidden_reason', 'videos.appeal_text', 'users.id as owner_id', 'users.username', 'users.banned_at'])
        .where('videos.id', '=', id).executeTakeFirst();
      if (!v) return gone;
      return {
        title: v.title, text: v.description.slice(0, 300), thumbnail: this.ctx.storage.url(v.thumbnail_key),
        owner: { _id: v.owner_id, username: v.username, banned: v.banned_at !== null },
        hidden: v.hidden_at !== null ? { reason: v.hidden_reason ?? '', appeal: v.appeal_text } : null, exists: true,
      };
    }
    if (type === 'comment') {
      const c = await db.selectFrom('comments').innerJoin('users', 'users.id', 'comments.owner_id').innerJoin('videos', 'videos.id', 'comments.video_id')
        .select(['comments.content', 'videos.title', 'users.id as owner_id', 'users.username', 'users.banned_at'])
        .where('comments.id', '=', id).executeTakeFirst();
      if (!c) return gone;
      return { title: `Comment on "${c.title}"`, text: c.content.slice(0, 300), thumbnail: null, owner: { _id: c.owner_id, username: c.username, banned: c.banned_at !== null }, hidden: null, exists: true };
    }
    const u = await db.selectFrom('users').select(['id', 'username', 'full_name', 'banned_at']).where('id', '=', id).executeTakeFirst();
    if (!u) return gone;
    return { title: u.full_name, text: `@${u.username}`, thumbnail: null, owner: { _id: u.id, username: u.username, banned: u.banned_at !== null }, hidden: null, exists: true };
  }

  /** Acts on a report's target and closes every open report of it. */
  async act(user: AuthUser, reportId: string, body: ModerationBody): Promise<{ action: string; targetType: string; targetId: string }> {
    const report = await this.reports.find(reportId);
    if (!report) throw notFound('Report');
    if (report.state !== 'open') throw conflict('This report has already been handled');
    const target = { type: report.target_type, id: report.target_id };
    const actor = actorOf(user);
    const note = body.note || null;
    switch (body.action) {
      case 'dismiss':
        await this.ctx.db.transaction().execute(async (trx) => {
          await this.reports.closeOpen(trx, target, 'dismissed', 'dismissed', user.id);
          await recordAudit(trx, actor, { action: 'reports.dismiss', target, reason: note, details: { reportId } });
        });
        break;
      case 'hide': await this.hide(actor, target, note); break;
      case 'restore': await this.restore(actor, target, note); break;
      case 'delete': await this.remove(actor, target, note); break;
      case 'ban': await this.ban(user, target, note); break;
    }
    // Takedowns, restores, deletions and bans all change what visitors see.
    if (body.action !== 'dismiss') await this.ctx.answers.changed();
    return { action: body.action, targetType: target.type, targetId: target.id };
  }

  private async videoTarget(target: { type: string; id: string }, action: string) {
    if (target.type !== 'video') throw badRequest(`Only videos can be ${action}; choose delete or ban for a ${target.type}`);
    const video = await this.ctx.db.selectFrom('videos').select(['id', 'owner_id', 'hidden_at']).where('id', '=', target.id).executeTakeFirst();
    if (!video) throw notFound('Video');
    return video;
  }

  private async hide(actor: Actor, target: { type: ReportRow['target_type']; id: string }, note: string | null) {
    if (!note) throw badRequest('note is required to hide: the owner sees it as the reason', [{ path: 'note', message: 'note is required to hide' }]);
    const video = await this.videoTarget(target, 'hidden');
    await this.ctx.db.transaction().execute(async (trx) => {
      // A new takedown gets its own appeal.
      await trx.updateTable('videos').set({ hidden_at: Date.now(), hidden_reason: note, appeal_text: null, appealed_at: null })
        .where('id', '=', video.id).execute();
      await refreshVideoAccess(trx, { ownerId: video.owner_id, videoId: video.id });
      await this.reports.closeOpen(trx, target, 'resolved', 'hidden', actor.id!);
      await recordAudit(trx, actor, { action: 'video.hide', target, reason: note });
    });
  }

  private async restore(actor: Actor, target: { type: ReportRow['target_type']; id: string }, note: string | null) {
    const video = await this.videoTarget(target, 'restored');
    if (video.hidden_at === null) throw conflict('This video is not hidden');
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('videos').set({ hidden_at: null, hidden_reason: null }).where('id', '=', video.id).execute();
      await refreshVideoAccess(trx, { ownerId: video.owner_id, videoId: video.id });
      await this.reports.closeOpen(trx, target, 'resolved', 'restored', actor.id!);
      await recordAudit(trx, actor, { action: 'video.restore', target, reason: note });
    });
    // A video taken down before it was ever listed reaches its channel's followers now.
    await tell(this.ctx.logger, 'videoListed', () => this.ctx.notifications.videoListed(video.id));
  }

  private async remove(actor: Actor, target: { type: ReportRow['target_type']; id: string }, note: string | null) {
    if (target.type === 'channel') throw badRequest('A channel cannot be deleted; ban the account instead');
    if (target.type === 'video') {
      const video = await this.videoTarget(target, 'deleted');
      await this.videos.deleteWithCascade(video.id, video.owner_id);
      await this.ctx.storage.deletePrefix(videoPrefix(video.id));
    } else {
      const comment = await this.comments.findAccess(target.id);
      if (!comment) throw notFound('Comment');
      await this.comments.delete(comment.id, comment.video_id);
    }
    await this.ctx.db.transaction().execute(async (trx) => {
      await this.reports.closeOpen(trx, target, 'resolved', 'deleted', actor.id!);
      await recordAudit(trx, actor, { action: `${target.type}.delete`, target, reason: note });
    });
  }

  private async ban(user: AuthUser, target: { type: ReportRow['target_type']; id: string }, note: string | null) {
    if (!note) throw badRequest('note is required to ban: it is kept as the reason', [{ path: 'note', message: 'note is required to ban' }]);
    const ownerId = await this.ownerOf(target);
    await this.banAccount(user, ownerId, note);
    await this.reports.closeOpen(this.ctx.db, target, 'resolved', 'banned', user.id);
  }

  /** Bans an account; staff accounts must lose their role first, and nobody bans themselves. */
  async banAccount(user: AuthUser, userId: string, reason: string): Promise<void> {
    const account = await this.ctx.db.selectFrom('users').select(['id', 'role']).where('id', '=', userId).executeTakeFirst();
    if (!account) throw notFound('User');
    if (account.id === user.id) throw badRequest('You cannot ban yourself');
    if (account.role !== 'user') throw forbidden('Moderators and admins cannot be banned; change their role first');
    if (!(await setBanned(this.ctx.db, actorOf(user), userId, { reason }, this.ctx.answers))) throw conflict('This account is already banned');
    this.ctx.sessions.accountChanged(userId);
  }

  private async ownerOf(target: { type: ReportRow['target_type']; id: string }): Promise<string> {
    if (target.type === 'channel') return target.id;
    if (target.type === 'video') {
      const v = await this.ctx.db.selectFrom('videos').select('owner_id').where('id', '=', target.id).executeTakeFirst();
      if (!v) throw notFound('Video');
      return v.owner_id;
    }
    const c = await this.ctx.db.selectFrom('comments').select('owner_id').where('id', '=', target.id).executeTakeFirst();
    if (!c) throw notFound('Comment');
    return c.owner_id;
  }

  /** The owner's one appeal of a takedown: it goes to the queue as an open report of the video. */
  async appeal(user: AuthUser, videoId: string, text: string): Promise<Report> {
    const video = await this.ctx.db.selectFrom('videos').select(['id', 'owner_id', 'hidden_at', 'appealed_at', 'status', 'visibility', 'watchable'])
      .where('id', '=', videoId).executeTakeFirst();
    if (!video || !canWatch(video, user)) throw notFound('Video');
    if (video.owner_id !== user.id) throw forbidden('Only the owner can appeal a takedown');
    if (video.hidden_at === null) throw conflict('This video is not taken down');
    if (video.appealed_at !== null) throw conflict('You have already appealed this takedown');
    const now = Date.now();
    const row: ReportRow = {
      id: newId(), reporter_id: user.id, target_type: 'video', target_id: videoId, reason: 'appeal', note: text,
      state: 'open', resolution: null, resolved_by: null, resolved_at: null, created_at: now,
    };
    await this.ctx.db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('videos').set({ appeal_text: text, appealed_at: now })
        .where('id', '=', videoId).where('appealed_at', 'is', null).where('hidden_at', 'is not', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) throw conflict('You have already appealed this takedown');
      await trx.insertInto('reports').values(row).execute();
      await recordAudit(trx, actorOf(user), { action: 'video.appeal', target: { type: 'video', id: videoId }, reason: text });
    });
    return presentReport(row);
  }
}

function presentReport(r: ReportRow): Report {
  return {
    _id: r.id, targetType: r.target_type, targetId: r.target_id, reason: r.reason, note: r.note, state: r.state,
    resolution: r.resolution, createdAt: toIso(Number(r.created_at)),
  };
}
