import type { ReportGroup } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { ModerationRepository } from './moderation.repository.js';
import { presentReport } from './reports.presenter.js';
import type { ReportRow, ReportsRepository, ReportState } from './reports.repository.js';

const QUEUE_LIMIT = 1000;

interface QueueDeps {
  reports: Pick<ReportsRepository, 'list'>;
  moderation: Pick<ModerationRepository, 'videoPreview' | 'commentPreview'>;
  users: Pick<UsersRepository, 'findById'>;
  storage: Pick<Storage, 'url'>;
}

/** The moderation queue: reports grouped by item, newest first, each group with a preview of what it is about. */
export async function reportQueue(deps: QueueDeps, state: ReportState): Promise<ReportGroup[]> {
  const rows = await deps.reports.list(state, QUEUE_LIMIT);
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = `${r.target_type}:${r.target_id}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: ReportGroup[] = [];
  for (const list of groups.values()) {
    const first = list[0]!;
    const reasons: Record<string, number> = {};
    for (const r of list) reasons[r.reason] = (reasons[r.reason] ?? 0) + 1;
    out.push({
      targetType: first.target_type,
      targetId: first.target_id,
      count: list.length,
      reasons,
      preview: await preview(deps, first.target_type, first.target_id),
      reports: list.map((r) => ({ ...presentReport(r), reporter: { _id: r.reporter_id, username: r.reporter_username } })),
      lastReportedAt: toIso(Number(first.created_at)),
    });
  }
  return out;
}

async function preview(deps: QueueDeps, type: ReportRow['target_type'], id: string): Promise<ReportGroup['preview']> {
  const { moderation, users, storage } = deps;
  const gone = { title: `Deleted ${type}`, text: '', thumbnail: null, owner: null, hidden: null, exists: false };
  if (type === 'video') {
    const v = await moderation.videoPreview(id);
    if (!v) return gone;
    return {
      title: v.title,
      text: v.description.slice(0, 300),
      thumbnail: storage.url(v.thumbnail_key),
      owner: { _id: v.owner_id, username: v.username, banned: v.banned_at !== null },
      hidden: v.hidden_at !== null ? { reason: v.hidden_reason ?? '', appeal: v.appeal_text } : null,
      exists: true,
    };
  }
  if (type === 'comment') {
    const c = await moderation.commentPreview(id);
    if (!c) return gone;
    return {
      title: `Comment on "${c.title}"`,
      text: c.content.slice(0, 300),
      thumbnail: null,
      owner: { _id: c.owner_id, username: c.username, banned: c.banned_at !== null },
      hidden: null,
      exists: true,
    };
  }
  const u = await users.findById(id);
  if (!u) return gone;
  return {
    title: u.full_name,
    text: `@${u.username}`,
    thumbnail: null,
    owner: { _id: u.id, username: u.username, banned: u.banned_at !== null },
    hidden: null,
    exists: true,
  };
}
