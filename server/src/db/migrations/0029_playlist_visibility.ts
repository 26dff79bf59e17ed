import { type Kysely, type Migration } from 'kysely';

export function migrationPlaylistVisibility(): Migration {
  return {
    // Who may see a playlist besides its owner: public (listed on the owner's channel), unlisted
    // (anyone with the link) or private. Every playlist made before this stays private, as it was.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('playlists')
        .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
        .execute();
    },
  };
}
