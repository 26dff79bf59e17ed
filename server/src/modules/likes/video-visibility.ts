import { type RawBuilder, sql, type SqlBool } from 'kysely';

/**
 * SQL twin of isVisibleTo (videos.repository.ts) for any query with `videos` in scope: published
 * and ready, or the viewer's own. Plain SQL so it fits queries with any set of joined tables.
 */
export function videoVisibleTo(viewerId: string | null): RawBuilder<SqlBool> {
  const open = sql<SqlBool>`(videos.is_published = 1 and videos.status = 'ready')`;
  return viewerId ? sql<SqlBool>`(${open} or videos.owner_id = ${viewerId})` : open;
}
