import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { MailRequest } from '../mail/mail-outbox.js';
import type { MailRow } from '../mail/mail.repository.js';
import { AccountEmailService } from './account-email.service.js';
import { AccountMails } from './account-links.js';
import { AccountTokensRepository } from './account-tokens.repository.js';
import { UsersRepository } from './users.repository.js';

const RESET_MS = 60 * 60_000;

/**
 * The service on a real database with its clock in the test's hands: a reset link works until
 * PASSWORD_RESET_MINUTES have passed, and not a moment after.
 */
describe('AccountEmailService with a moving clock', () => {
  let t: TestApp;
  let now = Date.now();
  const sent: MailRequest[] = [];
  let service: AccountEmailService;
  let mails: AccountMails;

  beforeAll(async () => {
    t = await createTestApp();
    const users = new UsersRepository(t.ctx.db);
    const tokens = new AccountTokensRepository(t.ctx.db);
    mails = new AccountMails({ users, tokens, resetMs: RESET_MS });
    service = new AccountEmailService({
      outbox: { send: async (m) => void sent.push(m) },
      tokens,
      users,
      accounts: t.services.users,
      sessions: t.services.sessions,
      verification: 'optional',
      now: () => now,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The reset mail's token, as the job would compose it for the request the service stored. */
  async function resetToken(email: string): Promise<string> {
    await service.forgotPassword(email, 'https://video.example.test');
    const request = sent.at(-1)!;
    const row: MailRow = {
      id: 'm',
      kind: request.kind,
      to_address: request.to,
      user_id: request.userId,
      link_base: request.linkBase,
      subject: null,
      text_body: null,
      html_body: null,
      created_at: Date.now(),
    };
    const composed = await mails.compose(row);
    return /token=([A-Za-z0-9_-]+)/.exec(composed!.text)![1]!;
  }

  it('accepts a reset link just before it ends and refuses it just after', async () => {
    const u = await t.signUp();
    now = Date.now();
    const early = await resetToken(u.email);
    const late = await resetToken(u.email);
    const spare = await resetToken(u.email);
    now = Date.now() + RESET_MS + 1000;
    await expect(service.resetPassword(late, 'brand-new-horse-2')).rejects.toThrow(/unknown, already used or expired/);
    now = Date.now() + RESET_MS - 60_000;
    await service.resetPassword(early, 'brand-new-horse-2');
    await expect(service.resetPassword(early, 'third-new-horse-3')).rejects.toThrow(/unknown, already used or expired/);
    // The reset spent the account's other links too, even one still in time.
    await expect(service.resetPassword(spare, 'third-new-horse-3')).rejects.toThrow(/unknown, already used or expired/);
  });

  it('composes no mail for an address no account uses', async () => {
    expect(
      await mails.compose({
        id: 'x',
        kind: 'password-reset',
        to_address: 'nobody@example.com',
        user_id: null,
        link_base: 'https://video.example.test',
        subject: null,
        text_body: null,
        html_body: null,
        created_at: Date.now(),
      }),
    ).toBeNull();
  });
});
