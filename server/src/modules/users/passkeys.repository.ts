import type { Db } from '../../db/client.js';

export interface NewPasskey {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string;
  name: string;
  now: number;
}

export class PasskeysRepository {
  constructor(private readonly db: Db) {}

  /** Stores a challenge, and drops the expired ones so the table stays small. */
  async addChallenge(challenge: { challenge: string; purpose: 'registration' | 'authentication'; userId: string | null; expiresAt: number }, now: number) {
    await this.db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('passkey_challenges')
      .values({ challenge: challenge.challenge, purpose: challenge.purpose, user_id: challenge.userId, expires_at: challenge.expiresAt })
      .execute();
  }

  /**
   * Deletes the challenge if it is live and was handed out for this purpose (and account); true when
   * it was. Deleting is what makes it single-use: of two requests racing with one challenge, one wins.
   */
  async takeChallenge(challenge: string, purpose: 'registration' | 'authentication', userId: string | null, now: number): Promise<boolean> {
    let q = this.db.deleteFrom('passkey_challenges').where('challenge', '=', challenge).where('purpose', '=', purpose).where('expires_at', '>', now);
    q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
    const res = await q.executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async create(p: NewPasskey) {
    await this.db
      .insertInto('passkeys')
      .values({
        id: p.id,
        user_id: p.userId,
        credential_id: p.credentialId,
        public_key: p.publicKey,
        counter: p.counter,
        transports: p.transports,
        name: p.name,
        created_at: p.now,
        last_used_at: null,
      })
      .execute();
  }

  listByUser(userId: string) {
    return this.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id').execute();
  }

  findByCredentialId(credentialId: string) {
    return this.db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
  }

  /** Moves the counter on from the value read before verifying; false when another sign-in moved it first. */
  async recordUse(id: string, fromCounter: number, toCounter: number, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('passkeys')
      .set({ counter: toCounter, last_used_at: now })
      .where('id', '=', id)
      .where('counter', '=', fromCounter)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}
