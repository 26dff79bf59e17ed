import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';

/** Who acted: the signed-in staff member, or the operator at the machine. */
export interface Actor {
  id: string | null;
  username: string;
}

export interface AuditRecord {
  action: string;
  target: { type: 'user' | 'channel' | 'video' | 'comment' | 'report' | 'settings' | 'job' | 'backup' | 'domain'; id: string };
  reason?: string | null;
  details?: Record<string, unknown>;
}

export type AuditRow = Database['audit_log'];

/**
 * The audit log, the only writer of its table. Other repositories build one on their transaction,
 * so that a line exists exactly when the change it describes does.
 */
export class AuditLogRepository {
  constructor(private readonly db: Db) {}

  async record(actor: Actor, record: AuditRecord): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        id: newId(),
        actor_id: actor.id,
        actor_username: actor.username,
        action: record.action,
        target_type: record.target.type,
        target_id: record.target.id,
        reason: record.reason ?? null,
        details: JSON.stringify(record.details ?? {}),
        created_at: Date.now(),
      })
      .execute();
  }

  /** Newest first, with an optional filter on one item. */
  async page(opts: { pageNumber: number; pageSize: number; targetType?: string; targetId?: string }): Promise<{ total: number; rows: AuditRow[] }> {
    let q = this.db.selectFrom('audit_log');
    if (opts.targetType) q = q.where('target_type', '=', opts.targetType);
    if (opts.targetId) q = q.where('target_id', '=', opts.targetId);
    const [{ total }] = (await q.select((eb) => eb.fn.countAll<number>().as('total')).execute()) as [{ total: number }];
    const rows = await q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(opts.pageSize)
      .offset((opts.pageNumber - 1) * opts.pageSize)
      .execute();
    return { total: Number(total), rows };
  }
}
