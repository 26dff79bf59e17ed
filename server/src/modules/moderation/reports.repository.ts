import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';

export type ReportRow = Database['reports'];
export type ReportState = ReportRow['state'];
export type ReportTarget = { type: ReportRow['target_type']; id: string };

/** The reports table's only writer. */
export class ReportsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ReportRow): Promise<void> {
    await this.db.insertInto('reports').values(row).execute();
  }

  find(id: string) {
    return this.db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOpen(reporterId: string, targetType: ReportRow['target_type'], targetId: string) {
    return this.db
      .selectFrom('reports')
      .select('id')
      .where('reporter_id', '=', reporterId)
      .where('target_type', '=', targetType)
      .where('target_id', '=', targetId)
      .where('state', '=', 'open')
      .executeTakeFirst();
  }

  /** Reports in one state with their reporters, newest first; the queue groups them by target. */
  list(state: ReportState, limit: number) {
    return this.db
      .selectFrom('reports')
      .innerJoin('users', 'users.id', 'reports.reporter_id')
      .selectAll('reports')
      .select('users.username as reporter_username')
      .where('reports.state', '=', state)
      .orderBy('reports.created_at', 'desc')
      .orderBy('reports.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Closes every open report of a target (the action answers them all). */
  async closeOpen(target: ReportTarget, state: 'resolved' | 'dismissed', resolution: string, by: string) {
    await this.db
      .updateTable('reports')
      .set({ state, resolution, resolved_by: by, resolved_at: Date.now() })
      .where('target_type', '=', target.type)
      .where('target_id', '=', target.id)
      .where('state', '=', 'open')
      .execute();
  }
}
