import type { Kysely, Migration } from 'kysely';

/**
 * Languages (docs/decisions/0058): `users.language` is the one an account chose, null until it
 * chooses; `mails.language` the one of the request that asked for a mail, for an account that has
 * chosen none.
 */
export function migrationLanguages(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
      await db.schema.alterTable('mails').addColumn('language', 'text').execute();
    },
  };
}
