import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';

export type IdentityRow = Database['user_identities'];

/** Provider accounts linked to accounts (single sign-on). */
export class IdentitiesRepository {
  constructor(private readonly db: Db) {}

  find(provider: string, subject: string) {
    return this.db.selectFrom('user_identities').selectAll().where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst();
  }

  listByUser(userId: string) {
    return this.db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** Links a provider account; false when it is linked already (to this account or another), as the unique index says. */
  async insert(row: IdentityRow): Promise<boolean> {
    const res = await this.db
      .insertInto('user_identities')
      .values(row)
      .onConflict((oc) => oc.columns(['provider', 'subject']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async touch(id: string, now: number): Promise<void> {
    await this.db.updateTable('user_identities').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  /** Unlinks one of the account's provider accounts; false when the account has no such link. */
  async delete(userId: string, id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('user_identities').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** What else the account can sign in with besides its linked providers. */
  async otherWaysIn(userId: string): Promise<{ hasPassword: boolean; passkeys: number }> {
    const user = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    const keys = await this.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { hasPassword: !!user?.password_hash, passkeys: Number(keys?.n ?? 0) };
  }
}
