import type { Language, User } from '@reelhouse/contract';
import { badRequest } from '../../http/errors.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { hashLinkToken } from './account-links.js';
import type { AccountTokenRow, AccountTokensRepository } from './account-tokens.repository.js';
import type { SessionService } from './session.service.js';
import type { UsersRepository } from './users.repository.js';
import { Passwords } from './passwords.js';
import type { UsersService } from './users.service.js';

export interface AccountEmailDeps {
  /** Null when the site sends no mail (no SMTP_URL): nothing here is offered then. */
  outbox: Pick<MailOutbox, 'send'> | null;
  tokens: AccountTokensRepository;
  users: Pick<UsersRepository, 'findById' | 'findByEmail' | 'update'>;
  accounts: Pick<UsersService, 'current'>;
  sessions: Pick<SessionService, 'closeOthers'>;
  verification: 'off' | 'optional' | 'required';
  /** At the site's cost (the standard one when not given). */
  passwords?: Passwords;
  /** The clock; tests move it. */
  now?: () => number;
}

const NO_MAIL = "This site does not send mail: ask the site's admin";
const BAD_RESET_LINK = 'This password-reset link is unknown, already used or expired: ask for a new one';
const BAD_VERIFY_LINK = 'This confirmation link is unknown, already used or expired: ask for a new one';

/** Password resets and address checks by mailed links. The mails themselves are made by the `mail.send` job (account-links.ts). */
export class AccountEmailService {
  private readonly now: () => number;
  private readonly passwords: Passwords;

  constructor(private readonly deps: AccountEmailDeps) {
    this.passwords = deps.passwords ?? new Passwords();
    this.now = deps.now ?? Date.now;
  }

  /**
   * Asks for a reset mail whatever the address: whether an account uses it is found out by the job,
   * so the answer and its timing are the same either way.
   */
  async forgotPassword(email: string, linkBase: string, language: Language | null = null): Promise<void> {
    await this.outbox().send({ kind: 'password-reset', to: email, userId: null, linkBase, language });
  }

  /** Sets the password, signs every device of the account out, and spends the link. */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    this.outbox();
    const row = await this.spend(token, 'reset', BAD_RESET_LINK);
    const user = await this.deps.users.findById(row.user_id);
    // A link mailed to an address the account has since left is no good.
    if (!user || user.email !== row.email) throw badRequest(BAD_RESET_LINK);
    const now = this.now();
    // Following the link proved the address, so it also counts as confirmed.
    await this.deps.users.update(user.id, {
      password_hash: await this.passwords.hash(newPassword),
      email_verified_at: user.email_verified_at ?? now,
      updated_at: now,
    });
    await this.deps.tokens.retireAll(user.id, 'reset', now);
    await this.deps.sessions.closeOthers(user.id, '');
  }

  /** Confirms the address the link was mailed to: the account's own, or the one it asked to move to. */
  async verifyEmail(token: string): Promise<User> {
    this.outbox();
    const row = await this.spend(token, 'verify', BAD_VERIFY_LINK);
    const user = await this.deps.users.findById(row.user_id);
    if (!user) throw badRequest(BAD_VERIFY_LINK);
    const now = this.now();
    if (row.email !== user.email) {
      const taken = await this.deps.users.findByEmail(row.email);
      if (taken && taken.id !== user.id) throw badRequest('Another account uses that address now');
    }
    await this.deps.users.update(user.id, { email: row.email, email_verified_at: now, updated_at: now });
    return this.deps.accounts.current(user.id);
  }

  /** Mails the signed-in account a new link to confirm its address. */
  async resendVerification(userId: string, linkBase: string, language: Language | null = null): Promise<void> {
    const outbox = this.outbox();
    if (this.deps.verification === 'off') throw badRequest('This site does not check email addresses');
    const user = await this.deps.users.findById(userId);
    if (!user) throw badRequest(BAD_VERIFY_LINK);
    if (user.email_verified_at !== null) throw badRequest('Your email address is already confirmed');
    await outbox.send({ kind: 'verify-email', to: user.email, userId, linkBase, language });
  }

  /** Mails a new account (or one moving to a new address) the link to confirm it. */
  async requestCheck(userId: string, email: string, linkBase: string, language: Language | null = null): Promise<void> {
    await this.outbox().send({ kind: 'verify-email', to: email, userId, linkBase, language });
  }

  private outbox() {
    if (!this.deps.outbox) throw badRequest(NO_MAIL);
    return this.deps.outbox;
  }

  /** The link's row, marked used by this call; a used, expired or unknown one is refused. */
  private async spend(token: string, purpose: AccountTokenRow['purpose'], refusal: string): Promise<AccountTokenRow> {
    const hash = hashLinkToken(token);
    const row = await this.deps.tokens.findByHash(hash);
    if (!row || row.purpose !== purpose || !(await this.deps.tokens.take(hash, this.now()))) throw badRequest(refusal);
    return row;
  }
}
