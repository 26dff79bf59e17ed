import type { Kysely, Migration } from 'kysely';

/**
 * Two-factor sign-in: one row per account that has set it up (the secret is stored encrypted), and
 * its recovery codes, stored as hashes. `last_step` is the TOTP time step last accepted, so a code
 * is taken once; `failures` and `failures_since` count wrong codes for the per-account limit, kept
 * in the database so that every API process of a site counts against the same limit.
 */
export function migrationTwoFactor(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('two_factor')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('secret', 'text')
        .addColumn('pending_secret', 'text')
        .addColumn('enabled_at', bigint)
        .addColumn('last_step', bigint)
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failures_since', bigint)
        .execute();
      await db.schema
        .createTable('two_factor_recovery_codes')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', bigint)
        .addPrimaryKeyConstraint('two_factor_recovery_codes_pk', ['user_id', 'code_hash'])
        .execute();
    },
  };
}
