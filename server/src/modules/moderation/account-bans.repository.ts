import type { Db } from '../../db/client.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { type Actor, AuditLogRepository } from '../audit/audit-log.repository.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { SessionsRepository } from '../users/sessions.repository.js';
import { UsersRepository } from '../users/users.repository.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';

/** An account's ban, and everything kept in step with it. */
export class AccountBansRepository {
  constructor(private readonly db: Db) {}

  /**
   * Bans or unbans an account, in one transaction with everything that depends on it: its sessions
   * (revoked: it is signed out everywhere at once), its videos' flags and the channel and site
   * counts (refreshVideoAccess), the comment counts of every video it commented on, and the audit
   * line. Unbanning restores exactly what banning hid, since both recompute from the same rules.
   * Returns false when the account was already in that state (nothing changes, nothing is logged).
   */
  async setBanned(actor: Actor, userId: string, ban: { reason: string } | null): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const now = Date.now();
      if (!(await new UsersRepository(trx).setBanned(userId, ban, now))) return false;
      if (ban) await new SessionsRepository(trx).revokeAllExcept(userId, null, now);
      await refreshVideoAccess(trx, { ownerId: userId });
      // The kept flag standing-rules.ts reads on comments, and the counts that follow from it.
      await new CommentsRepository(trx).setOwnerBanned(userId, ban !== null);
      await new VideoWritesRepository(trx).recountCommentsOfCommenter(userId);
      await new AuditLogRepository(trx).record(actor, {
        action: ban ? 'user.ban' : 'user.unban',
        target: { type: 'user', id: userId },
        reason: ban?.reason ?? null,
      });
      return true;
    });
  }
}
