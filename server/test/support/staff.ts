import type { Db } from '../../src/db/client.js';
import type { Role } from '../../src/db/schema.js';
import type { PublicChanges } from '../../src/lib/public-changes.js';
import type { Actor } from '../../src/modules/audit/audit-log.repository.js';
import { AccountBansRepository } from '../../src/modules/moderation/account-bans.repository.js';
import type { SignedIn, TestApp } from './test-app.js';

/** A fresh account with the given role (set in the database, as `npm run admin -- grant` does). */
export async function signUpAs(t: TestApp, role: Role): Promise<SignedIn> {
  const who = await t.signUp();
  await t.ctx.db.updateTable('users').set({ role }).where('id', '=', who.id).execute();
  // As after any role change: its sessions are looked up again.
  t.services.sessions.accountChanged(who.id);
  return who;
}

/** One caller of each kind, for the signed-out/user/moderator/admin checks of staff routes. */
export async function staffCallers(t: TestApp) {
  return { user: await t.signUp(), moderator: await signUpAs(t, 'moderator'), admin: await signUpAs(t, 'admin') };
}

/**
 * Bans (or with `ban` null, unbans) an account as moderation does, then tells the answers cache,
 * for tests that need a banned author without going through a report.
 */
export async function setBanned(db: Db, actor: Actor, userId: string, ban: { reason: string } | null, changes: PublicChanges): Promise<boolean> {
  const changed = await new AccountBansRepository(db).setBanned(actor, userId, ban);
  if (changed) await changes.changed();
  return changed;
}
