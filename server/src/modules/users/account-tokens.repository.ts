import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';

export type AccountTokenRow = Database['account_tokens'];

/** Links mailed to accounts, kept by a hash of their token. */
export class AccountTokensRepository {
  constructor(private readonly db: Db) {}

  async insert(row: AccountTokenRow): Promise<void> {
    await this.db.insertInto('account_tokens').values(row).execute();
  }

  async findByHash(tokenHash: string): Promise<AccountTokenRow | null> {
    return (await this.db.selectFrom('account_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
  }

  /** Marks the token used unless it was already or has run out; true for the one caller that got it. */
  async take(tokenHash: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Every other unused link of this purpose stops working (a password reset makes earlier reset links useless). */
  async retireAll(userId: string, purpose: AccountTokenRow['purpose'], now: number): Promise<void> {
    await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }

  /** Removes links that ended more than a day ago. */
  async deleteEndedBefore(cutoff: number): Promise<void> {
    await this.db.deleteFrom('account_tokens').where('expires_at', '<', cutoff).execute();
  }
}
