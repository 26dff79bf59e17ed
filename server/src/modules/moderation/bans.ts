import type { Db } from '../../db/client.js';
import { type Actor, recordAudit } from '../audit/audit-log.js';
import { SessionsRepository } from '../users/sessions.repository.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { shownCommentsCount } from '../../db/standing-rules.js';
import type { PublicChanges } from '../../lib/public-changes.js';

/**
 * Bans or unbans an account, in one transaction with everything that depends on it: its sessions
 * (revoked: it is signed out everywhere at once), its videos' flags and the channel and site
 * counts (refreshVideoAccess), the comment counts of every video it commented on, and the audit
 * line. Unbanning restores exactly what banning hid, since both recompute from the same rules.
 * Returns false when the account was already in that state (nothing changes, nothing is logged).
 * A change is told to `changes` once committed: the account's channel, videos and comments are gone
 * from (or back on) every public page.
 */
export async function setBanned(db: Db, actor: Actor, userId: string, ban: { reason: string } | null, changes: PublicChanges): Promise<boolean> {
  const changed = await db.transaction().execute(async (trx) => {
    const now = Date.now();
    let q = trx.updateTable('users')
      .set(ban ? { banned_at: now, ban_reason: ban.reason, updated_at: now } : { banned_at: null, ban_reason: null, updated_at: now })
      .where('id', '=', userId);
    q = ban ? q.where('banned_at', 'is', null) : q.where('banned_at', 'is not', null);
    const changed = await q.executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) return false;
    if (ban) await new SessionsRepository(trx).revokeAllExcept(userId, null, now);
    await refreshVideoAccess(trx, { ownerId: userId });
    await trx.updateTable('comments').set({ owner_banned: ban ? 1 : 0 }).where('owner_id', '=', userId).execute();
    await trx.updateTable('videos').set({ comments_count: shownCommentsCount() })
      .where('id', 'in', trx.selectFrom('comments').select('video_id').where('owner_id', '=', userId))
      .execute();
    await recordAudit(trx, actor, {
      action: ban ? 'user.ban' : 'user.unban', target: { type: 'user', id: userId }, reason: ban?.reason ?? null,
    });
    return true;
  });
  if (changed) await changes.changed();
  return changed;
}
