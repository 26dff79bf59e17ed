import { type Kysely, type Migration } from 'kysely';

export function migrationSessionAddresses(): Migration {
  return {
    // The address a device last signed in or refreshed from, shown in the account's list of devices;
    // null for sessions opened before addresses were kept.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
    },
  };
}
