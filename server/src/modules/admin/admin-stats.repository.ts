import { sql } from 'kysely';
import type { Db } from '../../db/client.js';

/** The site's totals for the admin dashboard, counted in one query per table. */
export class AdminStatsRepository {
  constructor(private readonly db: Db) {}

  users() {
    return this.db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        sql<number>`sum(case when banned_at is not null then 1 else 0 end)`.as('banned'),
        sql<number>`sum(approval_pending)`.as('pending'),
      ])
      .executeTakeFirstOrThrow();
  }

  videos() {
    return this.db
      .selectFrom('videos')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        sql<number>`sum(case when status = 'ready' then 1 else 0 end)`.as('ready'),
        sql<number>`sum(case when status = 'processing' then 1 else 0 end)`.as('processing'),
        sql<number>`sum(case when status = 'failed' then 1 else 0 end)`.as('failed'),
        sql<number>`sum(case when hidden_at is not null then 1 else 0 end)`.as('hidden'),
        sql<number>`sum(listed)`.as('listed'),
        sql<number>`coalesce(sum(source_bytes), 0)`.as('bytes'),
      ])
      .executeTakeFirstOrThrow();
  }

  async openReports(): Promise<number> {
    const row = await this.db
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'open')
      .executeTakeFirstOrThrow();
    return row.n;
  }
}
