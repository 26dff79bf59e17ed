import type { ModerationBody, Report, ReportBody, ReportGroup } from '@reelhouse/contract';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import { type Storage, videoPrefix } from '../../storage/storage.js';
import type { Actor } from '../audit/audit-log.repository.js';
import type { CommentsRepository } from '../comments/comments.repository.js';
import type { SessionService } from '../users/session.service.js';
import type { UsersRepository } from '../users/users.repository.js';
import { canWatch } from '../../db/video-access.js';
import { tell, type VideoEvents } from '../videos/video-events.js';
import type { VideosRepository } from '../videos/videos.repository.js';
import type { AccountBansRepository } from './account-bans.repository.js';
import type { ModerationRepository } from './moderation.repository.js';
import { reportQueue } from './report-queue.js';
import { presentReport } from './reports.presenter.js';
import type { ReportRow, ReportsRepository, ReportState, ReportTarget } from './reports.repository.js';

const TARGET_NAMES = { video: 'video', comment: 'comment', channel: 'channel' } as const;

const actorOf = (user: AuthUser): Actor => ({ id: user.id, username: user.username });

export interface ModerationDeps {
  reports: ReportsRepository;
  moderation: ModerationRepository;
  bans: AccountBansRepository;
  videos: Pick<VideosRepository, 'findById' | 'deleteWithCascade'>;
  comments: Pick<CommentsRepository, 'findVideoAccess' | 'findAccess' | 'delete'>;
  users: Pick<UsersRepository, 'findById'>;
  storage: Pick<Storage, 'url' | 'deletePrefix'>;
  logger: { warn(obj: object, msg: string): void };
  /** Told when a restored video may reach its channel's followers. */
  events: Pick<VideoEvents, 'videoListed' | 'videoChanged'>;
  /** Told once an action has committed: takedowns, restores, deletions and bans change what visitors see. */
  changes: PublicChanges;
  /** Told when an account's ban changes who its sessions belong to. */
  sessions: Pick<SessionService, 'accountChanged'>;
}

/**
 * Reports, the moderation queue, takedowns, appeals and bans. Every action closes the target's open
 * reports and writes an audit line; what a takedown or ban hides is decided by the access rules
 * (video-access.ts, standing-rules.ts), never here.
 */
export class ModerationService {
  constructor(private readonly deps: ModerationDeps) {}

  async report(user: AuthUser, body: ReportBody): Promise<Report> {
    const { reports } = this.deps;
    const ownerId = await this.visibleTargetOwner(user, body.targetType, body.targetId);
    if (ownerId === user.id) throw badRequest(`You cannot report your own ${TARGET_NAMES[body.targetType]}`);
    if (await reports.findOpen(user.id, body.targetType, body.targetId)) {
      throw conflict(`You have already reported this ${TARGET_NAMES[body.targetType]}`);
    }
    const row: ReportRow = {
      id: newId(),
      reporter_id: user.id,
      target_type: body.targetType,
      target_id: body.targetId,
      reason: body.reason,
      note: body.note,
      state: 'open',
      resolution: null,
      resolved_by: null,
      resolved_at: null,
      created_at: Date.now(),
    };
    // Two reports racing past the check above: the partial unique index keeps one.
    await reports.insert(row).catch(async (err) => {
      if (await reports.findOpen(user.id, body.targetType, body.targetId)) throw conflict(`You have already reported this ${TARGET_NAMES[body.targetType]}`);
      throw err;
    });
    return presentReport(row);
  }

  /** The owner of a target the user can see, or 404: nobody reports what they cannot see. */
  private async visibleTargetOwner(user: AuthUser, type: ReportRow['target_type'], id: string): Promise<string> {
    const { comments, users } = this.deps;
    if (type === 'video') {
      const video = await comments.findVideoAccess(id);
      if (!video || !canWatch(video, user)) throw notFound('Video');
      return video.owner_id;
    }
    if (type === 'comment') {
      const comment = await comments.findAccess(id);
      const author = comment && (await users.findById(comment.owner_id));
      if (!comment || !canWatch(comment.video, user) || author?.banned_at !== null) throw notFound('Comment');
      return comment.owner_id;
    }
    const channel = await users.findById(id);
    if (!channel || channel.banned_at !== null) throw notFound('Channel');
    return channel.id;
  }

  /** Reports in one state grouped by target, the most recently reported first, with a preview of each. */
  /** The moderation queue: open (or closed) reports grouped by what they are about, with a preview of each. */
  queue(state: ReportState): Promise<ReportGroup[]> {
    return reportQueue(this.deps, state);
  }

  /** Acts on a report's target and closes every open report of it. */
  async act(user: AuthUser, reportId: string, body: ModerationBody): Promise<{ action: string; targetType: string; targetId: string }> {
    const report = await this.deps.reports.find(reportId);
    if (!report) throw notFound('Report');
    if (report.state !== 'open') throw conflict('This report has already been handled');
    const target = { type: report.target_type, id: report.target_id };
    const actor = actorOf(user);
    const note = body.note || null;
    switch (body.action) {
      case 'dismiss':
        await this.deps.moderation.closeReports(target, { state: 'dismissed', resolution: 'dismissed' }, actor, {
          action: 'reports.dismiss',
          target,
          reason: note,
          details: { reportId },
        });
        break;
      case 'hide':
        await this.hide(actor, target, note);
        break;
      case 'restore':
        await this.restore(actor, target, note);
        break;
      case 'delete':
        await this.remove(actor, target, note);
        break;
      case 'ban':
        await this.ban(user, target, note);
        break;
    }
    // Takedowns, restores, deletions and bans all change what visitors see.
    if (body.action !== 'dismiss') await this.deps.changes.changed();
    return { action: body.action, targetType: target.type, targetId: target.id };
  }

  private async videoTarget(target: { type: string; id: string }, action: string) {
    if (target.type !== 'video') throw badRequest(`Only videos can be ${action}; choose delete or ban for a ${target.type}`);
    const video = await this.deps.videos.findById(target.id);
    if (!video) throw notFound('Video');
    return video;
  }

  private async hide(actor: Actor, target: ReportTarget, note: string | null) {
    if (!note) throw badRequest('note is required to hide: the owner sees it as the reason', [{ path: 'note', message: 'note is required to hide' }]);
    const video = await this.videoTarget(target, 'hidden');
    await this.deps.moderation.hideVideo(video, note, actor);
    const { events } = this.deps;
    await tell(this.deps.logger, 'videoChanged', () => events.videoChanged(video.id));
  }

  private async restore(actor: Actor, target: ReportTarget, note: string | null) {
    const video = await this.videoTarget(target, 'restored');
    if (video.hidden_at === null) throw conflict('This video is not hidden');
    await this.deps.moderation.restoreVideo(video, note, actor);
    // A video taken down before it was ever listed reaches its channel's followers now.
    const { events } = this.deps;
    await tell(this.deps.logger, 'videoListed', () => events.videoListed(video.id));
  }

  private async remove(actor: Actor, target: ReportTarget, note: string | null) {
    if (target.type === 'channel') throw badRequest('A channel cannot be deleted; ban the account instead');
    if (target.type === 'video') {
      const video = await this.videoTarget(target, 'deleted');
      await this.deps.videos.deleteWithCascade(video.id, video.owner_id);
      await this.deps.storage.deletePrefix(videoPrefix(video.id));
      const { events } = this.deps;
      await tell(this.deps.logger, 'videoChanged', () => events.videoChanged(video.id));
    } else {
      const comment = await this.deps.comments.findAccess(target.id);
      if (!comment) throw notFound('Comment');
      await this.deps.comments.delete(comment.id, comment.video_id);
    }
    await this.deps.moderation.closeReports(target, { state: 'resolved', resolution: 'deleted' }, actor, {
      action: `${target.type}.delete`,
      target,
      reason: note,
    });
  }

  private async ban(user: AuthUser, target: ReportTarget, note: string | null) {
    if (!note) throw badRequest('note is required to ban: it is kept as the reason', [{ path: 'note', message: 'note is required to ban' }]);
    const ownerId = await this.ownerOf(target);
    await this.banAccount(user, ownerId, note);
    await this.deps.reports.closeOpen(target, 'resolved', 'banned', user.id);
  }

  /** Bans an account; staff accounts must lose their role first, and nobody bans themselves. */
  async banAccount(user: AuthUser, userId: string, reason: string): Promise<void> {
    const account = await this.deps.users.findById(userId);
    if (!account) throw notFound('User');
    if (account.id === user.id) throw badRequest('You cannot ban yourself');
    if (account.role !== 'user') throw forbidden('Moderators and admins cannot be banned; change their role first');
    if (!(await this.setBanned(actorOf(user), userId, { reason }))) throw conflict('This account is already banned');
    this.deps.sessions.accountChanged(userId);
  }

  /** Lifts a ban; an account not banned is left as it is. */
  async unbanAccount(user: AuthUser, userId: string): Promise<void> {
    await this.setBanned(actorOf(user), userId, null);
  }

  /**
   * A ban's change is told once committed: the account's channel, videos and comments are gone
   * from (or back on) every public page.
   */
  private async setBanned(actor: Actor, userId: string, ban: { reason: string } | null): Promise<boolean> {
    const changed = await this.deps.bans.setBanned(actor, userId, ban);
    if (changed) await this.deps.changes.changed();
    return changed;
  }

  private async ownerOf(target: ReportTarget): Promise<string> {
    if (target.type === 'channel') return target.id;
    if (target.type === 'video') {
      const v = await this.deps.videos.findById(target.id);
      if (!v) throw notFound('Video');
      return v.owner_id;
    }
    const ownerId = await this.deps.moderation.commentOwner(target.id);
    if (!ownerId) throw notFound('Comment');
    return ownerId;
  }

  /** The owner's one appeal of a takedown: it goes to the queue as an open report of the video. */
  async appeal(user: AuthUser, videoId: string, text: string): Promise<Report> {
    const video = await this.deps.videos.findById(videoId);
    if (!video || !canWatch(video, user)) throw notFound('Video');
    if (video.owner_id !== user.id) throw forbidden('Only the owner can appeal a takedown');
    if (video.hidden_at === null) throw conflict('This video is not taken down');
    if (video.appealed_at !== null) throw conflict('You have already appealed this takedown');
    const row: ReportRow = {
      id: newId(),
      reporter_id: user.id,
      target_type: 'video',
      target_id: videoId,
      reason: 'appeal',
      note: text,
      state: 'open',
      resolution: null,
      resolved_by: null,
      resolved_at: null,
      created_at: Date.now(),
    };
    if (!(await this.deps.moderation.fileAppeal(row, actorOf(user)))) throw conflict('You have already appealed this takedown');
    return presentReport(row);
  }
}
