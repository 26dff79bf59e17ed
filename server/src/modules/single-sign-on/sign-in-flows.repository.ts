import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';

export type SignInFlowRow = Database['sign_in_flows'];

/** Single sign-ons under way: written at the redirect to the provider, taken once at its return. */
export class SignInFlowsRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new flow, and drops the flows nobody came back from. */
  async insert(row: SignInFlowRow, now: number): Promise<void> {
    await this.db.deleteFrom('sign_in_flows').where('expires_at', '<', now).execute();
    await this.db.insertInto('sign_in_flows').values(row).execute();
  }

  /** The flow of this state, deleted in the same step so that it is used once; undefined if unknown, used or expired. */
  async take(stateHash: string, now: number): Promise<SignInFlowRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('sign_in_flows').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
      if (!row) return undefined;
      const res = await trx.deleteFrom('sign_in_flows').where('state_hash', '=', stateHash).executeTakeFirst();
      // Two returns at once: only the one whose delete counted goes on.
      if (Number(res.numDeletedRows) === 0) return undefined;
      return row.expires_at >= now ? row : undefined;
    });
  }
}
