import { type Kysely, type Migration } from 'kysely';

export function migrationResumableUploads(): Migration {
  const bigint = 'bigint' as const;
  return {
    // Resumable (tus) uploads in progress, so their owner, size and expiry are known to every
    // API process; the bytes themselves live in the upload store (DATA_DIR/uploads or the bucket).
    // Each video keeps the size of its source for storage quotas, and a user may have quotas of
    // their own (null: the site's defaults).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('size', bigint, (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('claimed_at', bigint)
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('expires_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('uploads_owner').on('uploads').columns(['owner_id', 'created_at']).execute();
      await db.schema.createIndex('uploads_expires').on('uploads').columns(['expires_at']).execute();
      await db.schema
        .alterTable('videos')
        .addColumn('source_bytes', bigint, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('videos_owner_bytes').on('videos').columns(['owner_id', 'created_at', 'source_bytes']).execute();
      await db.schema.alterTable('users').addColumn('quota_bytes', bigint).execute();
      await db.schema.alterTable('users').addColumn('daily_quota_bytes', bigint).execute();
    },
  };
}
