import type { AdminStats, AdminUser, AdminUserPatch } from '@reelhouse/contract';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.js';
import type { SessionService } from '../users/session.service.js';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { toIso } from '../../lib/ids.js';
import { recordAudit } from '../audit/audit-log.js';
import { setBanned } from '../moderation/bans.js';
import type { ModerationService } from '../moderation/moderation.service.js';

const USED_BYTES = sql<number>`(select coalesce(sum(v.source_bytes), 0) from videos v where v.owner_id = users.id)`;
const ALL_VIDEOS = sql<number>`(select count(*) from videos v where v.owner_id = users.id)`;

/** Accounts as admins see and change them: search, role, ban, approval and quotas. */
export class AdminUsersService {
  constructor(private readonly ctx: AppContext & { sessions: SessionService }, private readonly moderation: ModerationService) {}

  async list(q: { query?: string; role?: AdminUser['role']; banned?: 'true' | 'false'; pageNumber: number; pageSize: number }) {
    let base = this.ctx.db.selectFrom('users');
    if (q.query) {
      const like = `%${q.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) => eb.or([
        eb(sql`lower(username)`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(email)`, 'like', sql`${like} escape '\\'`),
        eb(sql`lower(full_name)`, 'like', sql`${like} escape '\\'`),
      ]));
    }
    if (q.role) base = base.where('role', '=', q.role);
    if (q.banned) base = base.where('banned_at', q.banned === 'true' ? 'is not' : 'is', null);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().select([USED_BYTES.as('used_bytes'), ALL_VIDEOS.as('all_videos')])
      .orderBy('created_at', 'desc').orderBy('id', 'desc')
      .limit(q.pageSize).offset((q.pageNumber - 1) * q.pageSize).execute();
    return { total: Number(n), users: rows.map(present) };
  }

  async get(id: string): Promise<AdminUser> {
    const row = await this.ctx.db.selectFrom('users').selectAll().select([USED_BYTES.as('used_bytes'), ALL_VIDEOS.as('all_videos')])
      .where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('User');
    return present(row);
  }

  async update(admin: AuthUser, id: string, patch: AdminUserPatch): Promise<AdminUser> {
    const account = await this.get(id);
    const actor = { id: admin.id, username: admin.username };
    const target = { type: 'user' as const, id };
    if (patch.role !== undefined && patch.role !== account.role) {
      // The last way back in would otherwise be the operator command.
      if (id === admin.id) throw badRequest('You cannot change your own role');
      await this.ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ role: patch.role!, updated_at: Date.now() }).where('id', '=', id).execute();
        await recordAudit(trx, actor, { action: 'user.role', target, details: { from: account.role, to: patch.role } });
      });
      this.ctx.sessions.accountChanged(id);
      // Which of their notifications they may open depends on the role too.
      await this.ctx.answers.personalChanged(id);
    }
    if (patch.approved && account.approvalPending) {
      await this.ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ approval_pending: 0, updated_at: Date.now() }).where('id', '=', id).execute();
        await recordAudit(trx, actor, { action: 'user.approve', target });
      });
    }
    if (patch.quotaBytes !== undefined || patch.dailyQuotaBytes !== undefined) {
      const set = {
        ...(patch.quotaBytes !== undefined ? { quota_bytes: patch.quotaBytes } : {}),
        ...(patch.dailyQuotaBytes !== undefined ? { daily_quota_bytes: patch.dailyQuotaBytes } : {}),
      };
      await this.ctx.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ ...set, updated_at: Date.now() }).where('id', '=', id).execute();
        await recordAudit(trx, actor, {
          action: 'user.quota', target,
          details: { from: { quotaBytes: account.quotaBytes, dailyQuotaBytes: account.dailyQuotaBytes }, to: { quotaBytes: patch.quotaBytes, dailyQuotaBytes: patch.dailyQuotaBytes } },
        });
      });
    }
    if (patch.banned === true && !account.banned) await this.moderation.banAccount(admin, id, patch.banReason ?? 'Banned by an admin');
    if (patch.banned === false) await setBanned(this.ctx.db, actor, id, null, this.ctx.answers);
    return this.get(id);
  }

  async stats(): Promise<AdminStats> {
    const db = this.ctx.db;
    const count = (n: { n: number | string | bigint }) => Number(n.n);
    const users = await db.selectFrom('users').select((eb) => [
      eb.fn.countAll<number>().as('n'),
      sql<number>`sum(case when banned_at is not null then 1 else 0 end)`.as('banned'),
      sql<number>`sum(approval_pending)`.as('pending'),
    ]).executeTakeFirstOrThrow();
    const videos = await db.selectFrom('videos').select((eb) => [
      eb.fn.countAll<number>().as('n'),
      sql<number>`sum(case when status = 'ready' then 1 else 0 end)`.as('ready'),
      sql<number>`sum(case when status = 'processing' then 1 else 0 end)`.as('processing'),
      sql<number>`sum(case when status = 'failed' then 1 else 0 end)`.as('failed'),
      sql<number>`sum(case when hidden_at is not null then 1 else 0 end)`.as('hidden'),
      sql<number>`sum(listed)`.as('listed'),
      sql<number>`coalesce(sum(source_bytes), 0)`.as('bytes'),
    ]).executeTakeFirstOrThrow();
    const reports = await db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'open').executeTakeFirstOrThrow();
    return {
      users: count(users), bannedUsers: Number(users.banned ?? 0), pendingApprovals: Number(users.pending ?? 0),
      videos: { total: count(videos), ready: Number(videos.ready ?? 0), processing: Number(videos.processing ?? 0), failed: Number(videos.failed ?? 0), hidden: Number(videos.hidden ?? 0) },
      publicVideos: Number(videos.listed ?? 0), storageBytes: Number(videos.bytes ?? 0), openReports: count(reports),
    };
  }
}

type Row = import('../../db/schema.js').Database['users'] & { used_bytes: number; all_videos: number };

function present(r: Row): AdminUser {
  return {
    _id: r.id, username: r.username, fullName: r.full_name, email: r.email, role: r.role,
    banned: r.banned_at !== null, banReason: r.ban_reason, approvalPending: r.approval_pending === 1,
    quotaBytes: r.quota_bytes === null ? null : Number(r.quota_bytes),
    dailyQuotaBytes: r.daily_quota_bytes === null ? null : Number(r.daily_quota_bytes),
    storageUsedBytes: Number(r.used_bytes), videosCount: Number(r.all_videos), createdAt: toIso(Number(r.created_at)),
  };
}
