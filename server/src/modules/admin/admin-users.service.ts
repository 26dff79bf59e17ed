import type { AdminStats, AdminUser, AdminUserPatch } from '@reelhouse/contract';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { toIso } from '../../lib/ids.js';
import type { PersonalChanges } from '../../lib/public-changes.js';
import type { ModerationService } from '../moderation/moderation.service.js';
import type { SessionService } from '../users/session.service.js';
import type { AdminStatsRepository } from './admin-stats.repository.js';
import type { AdminUserRow, AdminUsersFilter, AdminUsersRepository } from './admin-users.repository.js';

export interface AdminUsersDeps {
  users: AdminUsersRepository;
  stats: AdminStatsRepository;
  /** Bans and unbans go through moderation, which keeps everything a ban hides in step. */
  moderation: Pick<ModerationService, 'banAccount' | 'unbanAccount'>;
  /** Told after a role change: the account's sessions are looked up again. */
  sessions: Pick<SessionService, 'accountChanged'>;
  /** Told after a role change: which of their notifications they may open depends on it. */
  changes: PersonalChanges;
}

/** Accounts as admins see and change them: search, role, ban, approval, quotas, going live, and two-factor sign-in turned off. */
export class AdminUsersService {
  constructor(private readonly deps: AdminUsersDeps) {}

  async list(q: AdminUsersFilter) {
    const { total, rows } = await this.deps.users.list(q);
    return { total, users: rows.map(present) };
  }

  async get(id: string): Promise<AdminUser> {
    const row = await this.deps.users.find(id);
    if (!row) throw notFound('User');
    return present(row);
  }

  async update(admin: AuthUser, id: string, patch: AdminUserPatch): Promise<AdminUser> {
    const { users } = this.deps;
    const account = await this.get(id);
    const actor = { id: admin.id, username: admin.username };
    const target = { type: 'user' as const, id };
    if (patch.role !== undefined && patch.role !== account.role) {
      // The last way back in would otherwise be the operator command.
      if (id === admin.id) throw badRequest('You cannot change your own role');
      await users.change(id, { role: patch.role }, actor, { action: 'user.role', target, details: { from: account.role, to: patch.role } });
      this.deps.sessions.accountChanged(id);
      // Which of their notifications they may open depends on the role too.
      await this.deps.changes.personalChanged(id);
    }
    if (patch.approved && account.approvalPending) {
      await users.change(id, { approval_pending: 0 }, actor, { action: 'user.approve', target });
    }
    if (patch.quotaBytes !== undefined || patch.dailyQuotaBytes !== undefined) {
      const set = {
        ...(patch.quotaBytes !== undefined ? { quota_bytes: patch.quotaBytes } : {}),
        ...(patch.dailyQuotaBytes !== undefined ? { daily_quota_bytes: patch.dailyQuotaBytes } : {}),
      };
      await users.change(id, set, actor, {
        action: 'user.quota',
        target,
        details: {
          from: { quotaBytes: account.quotaBytes, dailyQuotaBytes: account.dailyQuotaBytes },
          to: { quotaBytes: patch.quotaBytes, dailyQuotaBytes: patch.dailyQuotaBytes },
        },
      });
    }
    if (patch.liveAllowed !== undefined && patch.liveAllowed !== account.liveAllowed) {
      await users.change(id, { live_allowed: patch.liveAllowed ? 1 : 0 }, actor, {
        action: 'user.live-allowed',
        target,
        details: { from: account.liveAllowed, to: patch.liveAllowed },
      });
    }
    if (patch.banned === true && !account.banned) await this.deps.moderation.banAccount(admin, id, patch.banReason ?? 'Banned by an admin');
    if (patch.banned === false) await this.deps.moderation.unbanAccount(admin, id);
    return this.get(id);
  }

  /**
   * For someone who lost both their authenticator and their recovery codes: their two-factor sign-in
   * goes off and every device of theirs is signed out, so that whoever holds a session now must sign
   * in again with the password.
   */
  async turnOffTwoFactor(admin: AuthUser, id: string): Promise<AdminUser> {
    const account = await this.get(id);
    // An admin's own goes off through their settings, with their password and a code.
    if (id === admin.id) throw badRequest('Turn your own two-factor authentication off from Sign-in and security');
    if (!account.twoFactorEnabled) throw badRequest('Two-factor authentication is not on for this account');
    const done = await this.deps.users.turnOffTwoFactor(
      id,
      { id: admin.id, username: admin.username },
      { action: 'user.two-factor-off', target: { type: 'user', id } },
    );
    if (!done) throw badRequest('Two-factor authentication is not on for this account');
    this.deps.sessions.accountChanged(id);
    return this.get(id);
  }

  async stats(): Promise<AdminStats> {
    const { stats } = this.deps;
    const users = await stats.users();
    const videos = await stats.videos();
    const openReports = await stats.openReports();
    return {
      users: Number(users.n),
      bannedUsers: Number(users.banned ?? 0),
      pendingApprovals: Number(users.pending ?? 0),
      videos: {
        total: Number(videos.n),
        ready: Number(videos.ready ?? 0),
        processing: Number(videos.processing ?? 0),
        failed: Number(videos.failed ?? 0),
        hidden: Number(videos.hidden ?? 0),
      },
      publicVideos: Number(videos.listed ?? 0),
      storageBytes: Number(videos.bytes ?? 0),
      openReports: Number(openReports),
    };
  }
}

function present(r: AdminUserRow): AdminUser {
  return {
    _id: r.id,
    username: r.username,
    fullName: r.full_name,
    email: r.email,
    role: r.role,
    banned: r.banned_at !== null,
    banReason: r.ban_reason,
    approvalPending: r.approval_pending === 1,
    quotaBytes: r.quota_bytes === null ? null : Number(r.quota_bytes),
    dailyQuotaBytes: r.daily_quota_bytes === null ? null : Number(r.daily_quota_bytes),
    storageUsedBytes: Number(r.used_bytes),
    videosCount: Number(r.all_videos),
    twoFactorEnabled: Number(r.two_factor) > 0,
    liveAllowed: r.live_allowed === 1,
    createdAt: toIso(Number(r.created_at)),
  };
}
