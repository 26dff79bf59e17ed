import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';
import { BUCKET_SORTS } from './0033_page_buckets.js';

/**
 * A version per kept list and sort (page_buckets, migration 0033), raised in the same transaction as
 * any change of its counts or boundaries. A process may then keep a list's running counts in memory
 * and read a deep page with one seek, checking in the same statement that the version it computed
 * from is still the one in the database (docs/decisions/0044-real-traffic.md).
 *
 * The triggers raise the versions of every list a changed video was or is in, for each sort whose
 * column changed (all of them when its listed flag or owner changed). A raise where no count moved
 * (a video not listed) only costs a reader one reload.
 */
export function migrationPageBucketVersions(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('page_bucket_versions')
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('sort', 'text', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('page_bucket_versions_pk', ['list', 'sort'])
        .execute();
      await sql`INSERT INTO page_bucket_versions (list, sort, version) SELECT DISTINCT list, sort, 1 FROM page_buckets`.execute(db);

      const lists = (r: string) => `('feed', 'all:' || ${r}.owner_id, 'listed:' || ${r}.owner_id)`;
      const raise = (r: string, when: string) => `UPDATE page_bucket_versions SET version = version + 1 WHERE list IN ${lists(r)} AND (${when});`;
      const sortChanged = `OLD.listed <> NEW.listed OR OLD.owner_id <> NEW.owner_id OR ${BUCKET_SORTS.map((s) => `(sort = '${s}' AND OLD.${s} <> NEW.${s})`).join(' OR ')}`;
      const columns = `listed, owner_id, ${BUCKET_SORTS.join(', ')}`;

      if (dialect === 'sqlite') {
        await sql.raw(`CREATE TRIGGER page_buckets_version_insert AFTER INSERT ON videos BEGIN ${raise('NEW', '1 = 1')} END`).execute(db);
        await sql.raw(`CREATE TRIGGER page_buckets_version_delete AFTER DELETE ON videos BEGIN ${raise('OLD', '1 = 1')} END`).execute(db);
        await sql
          .raw(
            `CREATE TRIGGER page_buckets_version_update AFTER UPDATE OF ${columns} ON videos BEGIN ${raise('OLD', sortChanged)} ${raise('NEW', sortChanged)} END`,
          )
          .execute(db);
        return;
      }
      // Named to fire after page_buckets_track (PostgreSQL fires a table's triggers in name order),
      // which has taken the buckets' advisory lock by then: version rows, like bucket rows, change one
      // transaction at a time.
      await sql
        .raw(
          `CREATE FUNCTION page_buckets_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            ${raise('NEW', 'true')}
          ELSIF TG_OP = 'DELETE' THEN
            ${raise('OLD', 'true')}
          ELSE
            ${raise('OLD', sortChanged)}
            ${raise('NEW', sortChanged)}
          END IF;
          RETURN NULL;
        END
        $$`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER page_buckets_version AFTER INSERT OR DELETE OR UPDATE OF ${columns} ON videos FOR EACH ROW EXECUTE FUNCTION page_buckets_version()`,
        )
        .execute(db);
    },
  };
}
