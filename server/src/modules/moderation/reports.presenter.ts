import type { Report } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { ReportRow } from './reports.repository.js';

/** A report as the API shows it. */
export function presentReport(r: ReportRow): Report {
  return {
    _id: r.id,
    targetType: r.target_type,
    targetId: r.target_id,
    reason: r.reason,
    note: r.note,
    state: r.state,
    resolution: r.resolution,
    createdAt: toIso(Number(r.created_at)),
  };
}
