import { randomBytes } from 'node:crypto';
import { Password, Role } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import { SessionsRepository } from '../users/sessions.repository.js';
import { hashPassword } from '../users/users.service.js';

/**
 * What `npm run admin -- <verb>` does, for the operator on the machine: the way in when no admin
 * exists yet, or when one has forgotten their password. It talks to the database directly, so it
 * works the same on SQLite and PostgreSQL and needs no running server.
 */
export const OPERATOR_USAGE = `Usage: npm run admin -- <verb> [arguments]
  list-users [--role user|moderator|admin]   every account with its role and state
  grant <username|email> <role>               set the role: user, moderator or admin
  reset-password <username|email> [password]  set a new password (one is made up when omitted)
                                              and sign the account out everywhere`;

export class OperatorError extends Error {}

type Out = (line: string) => void;

export async function runOperatorCommand(db: Db, args: string[], out: Out): Promise<void> {
  const [verb, ...rest] = args;
  switch (verb) {
    case 'list-users': return listUsers(db, rest, out);
    case 'grant': return grant(db, rest, out);
    case 'reset-password': return resetPassword(db, rest, out);
    case undefined: case 'help': case '--help': out(OPERATOR_USAGE); return;
    default: throw new OperatorError(`Unknown verb "${verb}".\n${OPERATOR_USAGE}`);
  }
}

async function findAccount(db: Db, who: string | undefined) {
  if (!who) throw new OperatorError(`Name the account by username or email.\n${OPERATOR_USAGE}`);
  const key = who.trim().toLowerCase();
  const row = await db.selectFrom('users').select(['id', 'username', 'email', 'role'])
    .where((eb) => eb.or([eb('username', '=', key), eb('email', '=', key)])).executeTakeFirst();
  if (!row) throw new OperatorError(`No account has the username or email "${who}".`);
  return row;
}

async function listUsers(db: Db, args: string[], out: Out) {
  let role: Role | undefined;
  if (args[0] === '--role') {
    const parsed = Role.safeParse(args[1]);
    if (!parsed.success) throw new OperatorError(parsed.error.issues[0]!.message);
    role = parsed.data;
  } else if (args.length) {
    throw new OperatorError(`Unknown argument "${args[0]}".\n${OPERATOR_USAGE}`);
  }
  let q = db.selectFrom('users').select(['username', 'email', 'role', 'banned_at', 'created_at']).orderBy('created_at');
  if (role) q = q.where('role', '=', role);
  const rows = await q.execute();
  out(['username', 'email', 'role', 'state', 'created'].join('\t'));
  for (const r of rows) {
    out([r.username, r.email, r.role, r.banned_at ? 'banned' : 'active', new Date(Number(r.created_at)).toISOString().slice(0, 10)].join('\t'));
  }
  out(`${rows.length} account${rows.length === 1 ? '' : 's'}`);
}

async function grant(db: Db, args: string[], out: Out) {
  const account = await findAccount(db, args[0]);
  const parsed = Role.safeParse(args[1]);
  if (!parsed.success) throw new OperatorError(parsed.error.issues[0]!.message);
  await db.updateTable('users').set({ role: parsed.data, updated_at: Date.now() }).where('id', '=', account.id).execute();
  out(`${account.username} is now ${parsed.data === 'user' ? 'a user' : `a${parsed.data === 'admin' ? 'n' : ''} ${parsed.data}`} (was ${account.role}).`);
}

async function resetPassword(db: Db, args: string[], out: Out) {
  const account = await findAccount(db, args[0]);
  const given = args[1];
  const password = given ?? randomBytes(12).toString('base64url');
  const parsed = Password.safeParse(password);
  if (!parsed.success) throw new OperatorError(parsed.error.issues[0]!.message);
  const now = Date.now();
  await db.updateTable('users').set({ password_hash: await hashPassword(password), updated_at: now }).where('id', '=', account.id).execute();
  // Whoever knew the old password may be signed in somewhere; the new one is the only way in.
  await new SessionsRepository(db).revokeAllExcept(account.id, null, now);
  out(given ? `Password of ${account.username} changed; every session signed out.` : `New password of ${account.username}: ${password}\nEvery session signed out.`);
}
