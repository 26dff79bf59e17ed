import type { AuditEntry } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { AuditLogRepository, AuditRow } from './audit-log.repository.js';

/** The audit log as staff read it. */
export class AuditLogService {
  constructor(private readonly deps: { audit: AuditLogRepository }) {}

  async list(opts: { pageNumber: number; pageSize: number; targetType?: string; targetId?: string }): Promise<{ total: number; entries: AuditEntry[] }> {
    const { total, rows } = await this.deps.audit.page(opts);
    return { total, entries: rows.map(presentAudit) };
  }
}

function presentAudit(row: AuditRow): AuditEntry {
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
