import type { Db } from '../../db/client.js';

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async create(session: { id: string; userId: string; userAgent: string | null; ip: string | null; now: number; expiresAt: number; tokenHash: string }) {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sessions')
        .values({
          id: session.id,
          user_id: session.userId,
          user_agent: session.userAgent,
          created_at: session.now,
          last_used_at: session.now,
          expires_at: session.expiresAt,
          revoked_at: null,
          ip: session.ip,
        })
        .execute();
      await trx
        .insertInto('refresh_tokens')
        .values({ token_hash: session.tokenHash, session_id: session.id, created_at: session.now, used_at: null })
        .execute();
    });
  }

  /** The session a refresh token belongs to, with whether this token was already used. */
  findByRefreshToken(tokenHash: string) {
    return this.db
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'sessions.user_id', 'sessions.expires_at', 'sessions.revoked_at', 'refresh_tokens.used_at', 'users.banned_at'])
      .where('refresh_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /**
   * Marks the old token used and stores its successor. Returns false when another request used the
   * token first, which counts as reuse.
   */
  async rotate(sessionId: string, oldHash: string, newHash: string, now: number, expiresAt: number, ip: string | null): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('refresh_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', oldHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await trx.insertInto('refresh_tokens').values({ token_hash: newHash, session_id: sessionId, created_at: now, used_at: null }).execute();
      await trx.updateTable('sessions').set({ last_used_at: now, expires_at: expiresAt, ip }).where('id', '=', sessionId).execute();
      // Old used tokens are kept only to recognise reuse; a handful per device is plenty.
      await trx
        .deleteFrom('refresh_tokens')
        .where('session_id', '=', sessionId)
        .where('used_at', '<', now - 30 * 24 * 3600_000)
        .execute();
      return true;
    });
  }

  async revoke(sessionId: string, now: number) {
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
  }

  /** Revokes the account's live sessions but one (or all); returns how many it revoked. An expired session needs no revoking. */
  async revokeAllExcept(userId: string, keepSessionId: string | null, now: number): Promise<number> {
    let q = this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);
    if (keepSessionId) q = q.where('id', '!=', keepSessionId);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** The account's live sessions, most recently used first. */
  listLive(userId: string, now: number) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'ip', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('last_used_at', 'desc')
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** A live session of this account, or nothing (another account's session reads as missing). */
  findLiveOf(userId: string, sessionId: string, now: number) {
    return this.db
      .selectFrom('sessions')
      .select(['id'])
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Signs out every demo account: its live sessions are revoked. */
  async revokeDemoAccounts(now: number) {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('revoked_at', 'is', null)
      .where('user_id', 'in', this.db.selectFrom('users').select('id').where('is_demo', '=', 1))
      .execute();
  }

  /** The user behind a live session, for access-token checks. */
  findLiveUser(sessionId: string, userId: string, now: number) {
    return (
      this.db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.username', 'users.is_demo', 'users.role'])
        .where('sessions.id', '=', sessionId)
        .where('sessions.user_id', '=', userId)
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', now)
        // A banned account is signed out everywhere at once.
        .where('users.banned_at', 'is', null)
        .executeTakeFirst()
    );
  }
}
