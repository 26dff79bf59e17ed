import { createHash, randomBytes } from 'node:crypto';
import type { MailRow } from '../mail/mail.repository.js';
import type { AccountTokensRepository } from './account-tokens.repository.js';
import type { UsersRepository } from './users.repository.js';

/** A mailed link to confirm an address works this long. */
export const VERIFY_LINK_MS = 48 * 3600_000;
/** Ended links are kept a day (a late click still hears "expired"), then removed. */
const ENDED_KEPT_MS = 24 * 3600_000;

/** 256 random bits: guessing one is out of the question, so a lookup by its hash is all the checking needed. */
export const newLinkToken = () => randomBytes(32).toString('base64url');
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What the account mails say: run by the `mail.send` job when it first takes a mail, so that a
 * password reset asked for an address no account uses costs the request no more than one that
 * does, and sends nothing.
 */
export class AccountMails {
  constructor(private readonly deps: { users: Pick<UsersRepository, 'findById' | 'findByEmail'>; tokens: AccountTokensRepository; resetMs: number }) {}

  async compose(mail: MailRow): Promise<{ subject: string; text: string; html: string } | null> {
    const now = Date.now();
    if (mail.kind === 'password-reset') {
      const user = await this.deps.users.findByEmail(mail.to_address);
      // The shared demo account's password is the site's to set, and a banned account has no use for one.
      if (!user || user.is_demo === 1 || user.banned_at !== null) return null;
      const token = await this.mint(user.id, 'reset', user.email, now + this.deps.resetMs, now);
      const minutes = Math.round(this.deps.resetMs / 60_000);
      return body(
        'Reset your password',
        `Someone, hopefully you, asked to reset the password of the account ${user.username}.`,
        'Choose a new password',
        `${mail.link_base}/reset-password?token=${token}`,
        `The link works once, for ${minutes} minutes. If you did not ask, ignore this mail: your password stays as it is.`,
      );
    }
    const user = mail.user_id ? await this.deps.users.findById(mail.user_id) : undefined;
    if (!user) return null;
    const isCurrent = user.email === mail.to_address;
    if (isCurrent && user.email_verified_at !== null) return null;
    const token = await this.mint(user.id, 'verify', mail.to_address, now + VERIFY_LINK_MS, now);
    return body(
      'Confirm your email address',
      isCurrent
        ? `Confirm that this address belongs to the account ${user.username}.`
        : `The account ${user.username} asked to use this address from now on. It changes once you confirm it.`,
      'Confirm this address',
      `${mail.link_base}/verify-email?token=${token}`,
      'The link works once, for 48 hours. If you did not ask for this, ignore this mail.',
    );
  }

  private async mint(userId: string, purpose: 'reset' | 'verify', email: string, expiresAt: number, now: number): Promise<string> {
    await this.deps.tokens.deleteEndedBefore(now - ENDED_KEPT_MS);
    const token = newLinkToken();
    await this.deps.tokens.insert({ token_hash: hashLinkToken(token), user_id: userId, purpose, email, created_at: now, expires_at: expiresAt, used_at: null });
    return token;
  }
}

function body(subject: string, intro: string, action: string, link: string, outro: string) {
  const text = `${intro}\n\n${action}: ${link}\n\n${outro}\n`;
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color: #555">${escapeHtml(outro)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
