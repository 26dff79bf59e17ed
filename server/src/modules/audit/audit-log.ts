import type { AuditEntry } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { newId, toIso } from '../../lib/ids.js';

/** Who acted: the signed-in staff member, or the operator at the machine. */
export interface Actor {
  id: string | null;
  username: string;
}

export interface AuditRecord {
  action: string;
  target: { type: 'user' | 'channel' | 'video' | 'comment' | 'report' | 'settings' | 'job'; id: string };
  reason?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes one audit line. Callers pass their transaction, so the line exists exactly when the
 * change it describes does.
 */
export async function recordAudit(db: Db, actor: Actor, record: AuditRecord): Promise<void> {
  await db.insertInto('audit_log').values({
    id: newId(),
    actor_id: actor.id,
    actor_username: actor.username,
    action: record.action,
    target_type: record.target.type,
    target_id: record.target.id,
    reason: record.reason ?? null,
    details: JSON.stringify(record.details ?? {}),
    created_at: Date.now(),
  }).execute();
}

/** Newest first, with an optional filter on one item. */
export async function listAudit(db: Db, opts: { pageNumber: number; pageSize: number; targetType?: string; targetId?: string }) {
  let q = db.selectFrom('audit_log');
  if (opts.targetType) q = q.where('target_type', '=', opts.targetType);
  if (opts.targetId) q = q.where('target_id', '=', opts.targetId);
  const [{ total }] = await q.select((eb) => eb.fn.countAll<number>().as('total')).execute() as [{ total: number }];
  const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc')
    .limit(opts.pageSize).offset((opts.pageNumber - 1) * opts.pageSize).execute();
  return { total: Number(total), entries: rows.map(presentAudit) };
}

function presentAudit(row: Database['audit_log']): AuditEntry {
  return {
    _id: row.id,
    actor: { _id: row.actor_id, username: row.actor_username },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    reason: row.reason,
    details: JSON.parse(row.details) as Record<string, unknown>,
    createdAt: toIso(Number(row.created_at)),
  };
}
