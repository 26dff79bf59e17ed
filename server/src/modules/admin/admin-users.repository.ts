import { sql } from 'kysely';
import type { AdminUser } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { type Actor, AuditLogRepository, type AuditRecord } from '../audit/audit-log.repository.js';
import { UsersRepository } from '../users/users.repository.js';

const USED_BYTES = sql<number>`(select coalesce(sum(v.source_bytes), 0) from videos v where v.owner_id = users.id)`;
const ALL_VIDEOS = sql<number>`(select count(*) from videos v where v.owner_id = users.id)`;

export type AdminUserRow = Database['users'] & { used_bytes: number; all_videos: number };
export type AdminUsersFilter = { query?: string; role?: AdminUser['role']; banned?: 'true' | 'false'; pageNumber: number; pageSize: number };
type AccountChange = Partial<Pick<Database['users'], 'role' | 'approval_pending' | 'quota_bytes' | 'daily_quota_bytes'>>;

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
      .select([USED_BYTES.as('used_bytes'), ALL_VIDEOS.as('all_videos')])
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
      .select([USED_BYTES.as('used_bytes'), ALL_VIDEOS.as('all_videos')])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Changes an account's role, approval or quotas, in one transaction with the audit line that tells of it. */
  async change(id: string, change: AccountChange, actor: Actor, audit: AuditRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await new UsersRepository(trx).changeAccount(id, change, Date.now());
      await new AuditLogRepository(trx).record(actor, audit);
    });
  }
}
