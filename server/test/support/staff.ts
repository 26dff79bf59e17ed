import type { Role } from '../../src/db/schema.js';
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
