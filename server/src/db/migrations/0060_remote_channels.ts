import type { Kysely, Migration } from 'kysely';

/**
 * Channels and videos of other servers, kept as accounts and videos of this site so that every
 * existing route (channel pages, subscriptions, the feed, video pages, comments, likes) serves them:
 * an account with `remote_actor_id` is a remote channel (no password, no address, never signs in),
 * a video with `remote_object_id` is a remote video whose media stay on its origin, and a comment
 * with one came from another server (a reply from Mastodon, PeerTube or another Reelhouse).
 */
export function migrationRemoteChannels(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const column of ['remote_actor_id', 'remote_url', 'remote_inbox', 'remote_shared_inbox']) {
        await db.schema.alterTable('users').addColumn(column, 'text').execute();
      }
      await db.schema.createIndex('users_remote_actor_id').unique().on('users').column('remote_actor_id').execute();
      for (const column of ['remote_object_id', 'remote_url']) {
        await db.schema.alterTable('videos').addColumn(column, 'text').execute();
      }
      await db.schema.createIndex('videos_remote_object_id').unique().on('videos').column('remote_object_id').execute();
      for (const column of ['remote_object_id', 'remote_url']) {
        await db.schema.alterTable('comments').addColumn(column, 'text').execute();
      }
      await db.schema.createIndex('comments_remote_object_id').unique().on('comments').column('remote_object_id').execute();
      // A video of this site shared by an account elsewhere (an Announce: a boost), once per account.
      await db.schema
        .createTable('federation_shares')
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('federation_shares_pk', ['video_id', 'actor_id'])
        .execute();
    },
  };
}
