import { sql } from 'kysely';
import type { AdminUser } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { type Actor, AuditLogRepository, type AuditRecord } from '../audit/audit-log.repository.js';
import { SessionsRepository } from '../users/sessions.repository.js';
import { TwoFactorRepository } from '../users/two-factor.repository.js';
import { UsersRepository } from '../users/users.repository.js';

const USED_BYTES = sql<number>`(select coalesce(sum(v.source_bytes), 0) from videos v where v.owner_id = users.id)`;
const ALL_VIDEOS = sql<number>`(select count(*) from videos v where v.owner_id = users.id)`;
const TWO_FACTOR = sql<number>`(select count(*) from two_factor tf where tf.user_id = users.id and tf.secret is not null)`;

export type AdminUserRow = Database['users'] & { used_bytes: number; all_videos: number; two_factor: number };
export type AdminUsersFilter = { query?: string; role?: AdminUser['role']; banned?: 'true' | 'false'; pageNumber: number; pageSize: number };
type AccountChange = Partial<Pick<AdminUserRow, 'role' | 'approval_pending' | 'quota_bytes' | 'daily_quota_bytes' | 'live_allowed'>>;

/** Accounts as the admin area reads them (with storage used and videos owned), and its changes to them. */
export class AdminUsersRepository {
  constructor(private readonly db: Db) {}

  async list(q: AdminUsersFilter): Promise<{ total: number; rows: AdminUserRow[] }> {
    let base = this.db.selectFrom('users');
    if (q.query) {
      const like = `%${q.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) =>
        eb.or([
          eb(sql`lower(username)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(email)`, 'like', sql`${like} escape '\\'`),
          eb(sql`lower(full_name)`, 'like', sql`${like} escape '\\'`),
        ]),
      );
    }
    if (q.role) base = base.where('role', '=', q.role);
    if (q.banned) base = base.where('banned_at', q.banned === 'true' ? 'is not' : 'is', null);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .select([USED_BYTES.as('used_bytes'), ALL_VIDEOS.as('all_videos'), TWO_FACTOR.as('two_factor')])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.pageNumber - 1) * q.pageSize)
      .execute();
    return { total: Number(n), rows };
  }

  find(id: string): Promise<AdminUserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .select([USED_BYTES.as('used_bytes'), ALL_VIDEOS.as('all_videos'), TWO_FACTOR.as('two_factor')])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Changes an account's role, approval, quotas or leave to go live, in one transaction with the audit line that tells of it. */
  async change(id: string, change: AccountChange, actor: Actor, audit: AuditRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).changeAccount(id, change, Date.now());
      await new AuditLogRepository(trx).record(actor, audit);
    });
  }

  /**
   * Turns the account's two-factor sign-in off and signs it out everywhere, in one transaction with
   * the audit line. False when it was not on (nothing changes, nothing is logged).
   */
  async turnOffTwoFactor(id: string, actor: Actor, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await new TwoFactorRepository(trx).removeRows(id))) return false;
      await new SessionsRepository(trx).revokeAllExcept(id, null, Date.now());
      await new AuditLogRepository(trx).record(actor, audit);
      return true;
    });
  }
}
