import { randomBytes } from 'node:crypto';
import { Password, Role } from '@reelhouse/contract';
import type { SessionsRepository } from '../users/sessions.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import { Passwords } from '../users/passwords.js';
import type { OperatorAccountsRepository } from './operator-accounts.repository.js';

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

export interface OperatorDeps {
  accounts: OperatorAccountsRepository;
  users: Pick<UsersRepository, 'update'>;
  sessions: Pick<SessionsRepository, 'revokeAllExcept'>;
  /** At the site's cost (the standard one when not given). */
  passwords?: Passwords;
}

export class OperatorCommands {
  constructor(private readonly deps: OperatorDeps) {}

  async run(args: string[], out: Out): Promise<void> {
    const [verb, ...rest] = args;
    switch (verb) {
      case 'list-users':
        return this.listUsers(rest, out);
      case 'grant':
        return this.grant(rest, out);
      case 'reset-password':
        return this.resetPassword(rest, out);
      case undefined:
      case 'help':
      case '--help':
        out(OPERATOR_USAGE);
        return;
      default:
        throw new OperatorError(`Unknown verb "${verb}".\n${OPERATOR_USAGE}`);
    }
  }

  private async findAccount(who: string | undefined) {
    if (!who) throw new OperatorError(`Name the account by username or email.\n${OPERATOR_USAGE}`);
    const row = await this.deps.accounts.findByUsernameOrEmail(who.trim().toLowerCase());
    if (!row) throw new OperatorError(`No account has the username or email "${who}".`);
    return row;
  }

  private async listUsers(args: string[], out: Out) {
    let role: Role | undefined;
    if (args[0] === '--role') {
      const parsed = Role.safeParse(args[1]);
      if (!parsed.success) throw new OperatorError(parsed.error.issues[0]!.message);
      role = parsed.data;
    } else if (args.length) {
      throw new OperatorError(`Unknown argument "${args[0]}".\n${OPERATOR_USAGE}`);
    }
    const rows = await this.deps.accounts.list(role);
    out(['username', 'email', 'role', 'state', 'created'].join('\t'));
    for (const r of rows) {
      out([r.username, r.email, r.role, r.banned_at ? 'banned' : 'active', new Date(Number(r.created_at)).toISOString().slice(0, 10)].join('\t'));
    }
    out(`${rows.length} account${rows.length === 1 ? '' : 's'}`);
  }

  private async grant(args: string[], out: Out) {
    const account = await this.findAccount(args[0]);
    const parsed = Role.safeParse(args[1]);
    if (!parsed.success) throw new OperatorError(parsed.error.issues[0]!.message);
    await this.deps.users.update(account.id, { role: parsed.data, updated_at: Date.now() });
    out(`${account.username} is now ${parsed.data === 'user' ? 'a user' : `a${parsed.data === 'admin' ? 'n' : ''} ${parsed.data}`} (was ${account.role}).`);
  }

  private async resetPassword(args: string[], out: Out) {
    const account = await this.findAccount(args[0]);
    const given = args[1];
    const password = given ?? randomBytes(12).toString('base64url');
    const parsed = Password.safeParse(password);
    if (!parsed.success) throw new OperatorError(parsed.error.issues[0]!.message);
    const now = Date.now();
    await this.deps.users.update(account.id, { password_hash: await (this.deps.passwords ?? new Passwords()).hash(password), updated_at: now });
    // Whoever knew the old password may be signed in somewhere; the new one is the only way in.
    await this.deps.sessions.revokeAllExcept(account.id, null, now);
    out(
      given
        ? `Password of ${account.username} changed; every session signed out.`
        : `New password of ${account.username}: ${password}\nEvery session signed out.`,
    );
  }
}
