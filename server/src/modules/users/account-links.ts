import { createHash, randomBytes } from 'node:crypto';
import type { Language } from '@reelhouse/contract';
import { knownLanguage } from '../../i18n/languages.js';
import { translator } from '../../i18n/translator.js';
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
      const language = mailLanguage(user, mail);
      const t = translator(language);
      return body(language, {
        subject: t('mail.reset.subject'),
        intro: t('mail.reset.intro', { username: user.username }),
        action: t('mail.reset.action'),
        link: `${mail.link_base}/reset-password?token=${token}`,
        outro: t('mail.reset.outro', { count: Math.round(this.deps.resetMs / 60_000) }),
      });
    }
    const user = mail.user_id ? await this.deps.users.findById(mail.user_id) : undefined;
    if (!user) return null;
    const isCurrent = user.email === mail.to_address;
    if (isCurrent && user.email_verified_at !== null) return null;
    const token = await this.mint(user.id, 'verify', mail.to_address, now + VERIFY_LINK_MS, now);
    const language = mailLanguage(user, mail);
    const t = translator(language);
    return body(language, {
      subject: t('mail.verify.subject'),
      intro: isCurrent ? t('mail.verify.introCurrent', { username: user.username }) : t('mail.verify.introNewAddress', { username: user.username }),
      action: t('mail.verify.action'),
      link: `${mail.link_base}/verify-email?token=${token}`,
      outro: t('mail.verify.outro', { count: VERIFY_LINK_MS / 3600_000 }),
    });
  }

  private async mint(userId: string, purpose: 'reset' | 'verify', email: string, expiresAt: number, now: number): Promise<string> {
    await this.deps.tokens.deleteEndedBefore(now - ENDED_KEPT_MS);
    const token = newLinkToken();
    await this.deps.tokens.insert({ token_hash: hashLinkToken(token), user_id: userId, purpose, email, created_at: now, expires_at: expiresAt, used_at: null });
    return token;
  }
}

/** The account's own language, else the one of the request that asked for the mail, else English. */
function mailLanguage(user: { language: string | null }, mail: MailRow): Language | null {
  return knownLanguage(user.language) ?? knownLanguage(mail.language);
}

/**
 * The page a mail's HTML part is: English as it always was; another language says which it is,
 * and Arabic that it reads right to left.
 */
function htmlStart(language: Language | null): string {
  if (!language || language === 'en') return '<html>';
  return `<html lang="${language}"${language === 'ar' ? ' dir="rtl"' : ''}>`;
}

function body(language: Language | null, m: { subject: string; intro: string; action: string; link: string; outro: string }) {
  const t = translator(language);
  const text = `${m.intro}\n\n${t('mail.linkLine', { action: m.action, link: m.link })}\n\n${m.outro}\n`;
  const html = [
    `<!doctype html>${htmlStart(language)}<body style="font-family: sans-serif; line-height: 1.5">`,
    `<p>${escapeHtml(m.intro)}</p>`,
    `<p><a href="${escapeHtml(m.link)}">${escapeHtml(m.action)}</a></p>`,
    `<p style="color: #555">${escapeHtml(m.outro)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: m.subject, text, html };
}
