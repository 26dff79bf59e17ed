import { sql } from 'kysely';
import type { Db } from '../../db/client.js';

export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  find(userId: string) {
    return this.db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** A new pending secret, replacing an earlier one; the secret in use (if any) is left alone. */
  async savePending(userId: string, pendingSecret: string): Promise<void> {
    await this.db
      .insertInto('two_factor')
      .values({ user_id: userId, secret: null, pending_secret: pendingSecret, enabled_at: null, last_step: null, failures: 0, failures_since: null })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ pending_secret: pendingSecret }))
      .execute();
  }

  /**
   * The pending secret becomes the one in use with its recovery codes, in one transaction. False when
   * the pending secret changed meanwhile (a second setup) or the step was already taken.
   */
  async enable(userId: string, pendingSecret: string, step: number, codeHashes: string[], now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('two_factor')
        .set({ secret: pendingSecret, pending_secret: null, enabled_at: now, last_step: step, failures: 0, failures_since: null })
        .where('user_id', '=', userId)
        .where('pending_secret', '=', pendingSecret)
        .where('secret', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
        .execute();
      return true;
    });
  }

  async remove(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
    });
  }

  /**
   * Deletes the account's two-factor rows on this repository's connection, for a caller that holds a
   * transaction already (an admin's change with its audit line). False when it was not on, and then nothing changes.
   */
  async removeRows(userId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('two_factor').where('user_id', '=', userId).where('secret', 'is not', null).executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) return false;
    await this.db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    return true;
  }

  /** The recovery codes replaced by new ones, in one transaction: the old ones stop working at once. */
  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx
        .insertInto('two_factor_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
        .execute();
    });
  }

  /** Takes a time step for the account: false if it or a later one was taken already (a replayed code). */
  async takeStep(userId: string, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('two_factor')
      .set({ last_step: step, failures: 0, failures_since: null })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Uses up a recovery code: false if the account has no such unused code. */
  async useRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('two_factor_recovery_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await trx.updateTable('two_factor').set({ failures: 0, failures_since: null }).where('user_id', '=', userId).execute();
      return true;
    });
  }

  /**
   * Counts a wrong code: a window older than windowMs starts again at one. Done in one statement so
   * that wrong codes sent at once are all counted.
   */
  async countFailure(userId: string, now: number, windowMs: number): Promise<void> {
    const stale = now - windowMs;
    await this.db
      .updateTable('two_factor')
      .set({
        failures: sql<number>`case when failures_since is null or failures_since <= ${stale} then 1 else failures + 1 end`,
        failures_since: sql<number>`case when failures_since is null or failures_since <= ${stale} then ${now} else failures_since end`,
      })
      .where('user_id', '=', userId)
      .execute();
  }
}
