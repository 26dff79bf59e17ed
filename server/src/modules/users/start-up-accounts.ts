import type { Logger } from 'pino';
import { newId } from '../../lib/ids.js';
import { newAccountRow } from './new-account-row.js';
import type { UserRow, UsersRepository } from './users.repository.js';
import { Passwords } from './passwords.js';

/** How many names (`demo`, `demo1`...) the demo account tries before giving up. */
const DEMO_USERNAME_TRIES = 100;

/**
 * The accounts a site's settings call for, made or fixed at start (and when an admin turns the demo
 * account on): the ADMIN_EMAILS grants and the demo account.
 */
export class StartUpAccounts {
  private readonly passwords: Passwords;

  constructor(private readonly deps: { users: UsersRepository; logger: Pick<Logger, 'info'>; adminEmails?: readonly string[]; passwords?: Passwords }) {
    this.passwords = deps.passwords ?? new Passwords();
  }

  /** Makes the accounts named by ADMIN_EMAILS admins; run at start-up, so editing the list takes effect on restart. */
  async ensureAdmins(): Promise<void> {
    const emails = this.deps.adminEmails ?? [];
    if (!emails.length) return;
    const promoted = await this.deps.users.promoteToAdmin(emails, Date.now());
    if (promoted) this.deps.logger.info({ promoted }, 'accounts made admins from ADMIN_EMAILS');
  }

  /**
   * Creates the demo account if it is missing, or resets its password to the configured one. Safe
   * to run from several processes at once (an admin turning the account on while another process
   * starts): the insert never fails on a row another one just made, and whoever loses looks again.
   */
  async ensureDemoAccount(demo: { email: string; password: string }): Promise<void> {
    let passwordHash: string | null = null;
    for (let n = 0; n < DEMO_USERNAME_TRIES; n++) {
      const existing = await this.deps.users.findByEmail(demo.email);
      if (existing) {
        if (!(await this.passwords.matches(existing.password_hash, demo.password))) {
          await this.deps.users.update(existing.id, { password_hash: await this.passwords.hash(demo.password), is_demo: 1, updated_at: Date.now() });
        }
        return;
      }
      // `demo`, or `demo1`, `demo2`... when someone signed up as `demo` first.
      const username = n === 0 ? 'demo' : `demo${n}`;
      if (await this.deps.users.findByUsername(username)) continue;
      passwordHash ??= await this.passwords.hash(demo.password);
      if (await this.deps.users.insertIfFree(demoRow(username, demo.email, passwordHash, Date.now()))) {
        this.deps.logger.info({ username }, 'demo account created');
        return;
      }
    }
    throw new Error(`No free username for the demo account after ${DEMO_USERNAME_TRIES} tries`);
  }
}

function demoRow(username: string, email: string, passwordHash: string, now: number): UserRow {
  const row = newAccountRow({
    id: newId(),
    username,
    email,
    fullName: 'Demo Account',
    passwordHash,
    avatarKey: null,
    coverKey: null,
    role: 'user',
    approvalPending: false,
    emailVerifiedAt: now,
    now,
  });
  return { ...row, is_demo: 1 };
}
