import { sql } from 'kysely';
import type { AdminVideosQuery } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { type Actor, AuditLogRepository, type AuditRecord } from '../audit/audit-log.repository.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';

const COLUMNS = [
  'videos.id',
  'videos.title',
  'videos.status',
  'videos.progress',
  'videos.failure_reason',
  'videos.visibility',
  'videos.hidden_at',
  'videos.source_key',
  'videos.source_bytes',
  'videos.duration',
  'videos.created_at',
  'videos.owner_id',
  'users.username as owner_username',
] as const;

/** Videos in every state, as the admin area reads them, and the retry of one whose processing failed. */
export class AdminVideosRepository {
  constructor(private readonly db: Db) {}

  private base(q: Pick<AdminVideosQuery, 'status' | 'query'>) {
    let base = this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id');
    if (q.status === 'hidden') base = base.where('videos.hidden_at', 'is not', null);
    else if (q.status) base = base.where('videos.status', '=', q.status);
    if (q.query) {
      const like = `%${q.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where(sql`lower(videos.title)`, 'like', sql`${like} escape '\\'`);
    }
    return base;
  }

  async list(q: AdminVideosQuery) {
    const base = this.base(q);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .select(COLUMNS)
      .orderBy('videos.created_at', 'desc')
      .orderBy('videos.id', 'desc')
      .limit(q.pageSize)
      .offset((q.pageNumber - 1) * q.pageSize)
      .execute();
    return { total: Number(n), rows };
  }

  find(id: string) {
    return this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id').select(COLUMNS).where('videos.id', '=', id).executeTakeFirst();
  }

  async titles(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('videos').select(['id', 'title']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.title]));
  }

  /**
   * A failed video back to processing, with its audit line, in one transaction. Only a row still
   * failed is taken, so two admins retrying at once start processing once. Returns whether this call did.
   */
  async reopenFailed(id: string, actor: Actor, audit: AuditRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const ownerId = await new VideoWritesRepository(trx).reopenFailed(id);
      if (ownerId === undefined) return false;
      await refreshVideoAccess(trx, { ownerId, videoId: id });
      await new AuditLogRepository(trx).record(actor, audit);
      return true;
    });
  }
}

export type AdminVideoRow = NonNullable<Awaited<ReturnType<AdminVideosRepository['find']>>>;
