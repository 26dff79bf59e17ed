import { hashLinkToken, newLinkToken } from '../../src/modules/users/account-links.js';
import type { RouteFixture, World } from './types.js';

const userRow = (w: World, id: string) => () => w.t.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** A link as if it had been mailed to a fresh account: the token, with its row stored. */
async function mailedLink(w: World, purpose: 'reset' | 'verify') {
  const u = await w.user();
  const token = newLinkToken();
  const now = Date.now();
  await w.t.ctx.db
    .insertInto('account_tokens')
    .values({ token_hash: hashLinkToken(token), user_id: u.id, purpose, email: u.email, created_at: now, expires_at: now + 3600_000, used_at: null })
    .execute();
  return { u, token };
}

/** Valid calls need a site that sends mail: the suites that use these set SMTP_URL. */
export const accountEmailFixtures: Record<string, RouteFixture> = {
  'POST /api/v1/users/forgot-password': {
    access: 'public',
    async valid(w) {
      const u = await w.user();
      return { as: null, status: 200, json: { email: u.email } };
    },
  },
  'POST /api/v1/users/reset-password': {
    access: 'public',
    async valid(w) {
      const { u, token } = await mailedLink(w, 'reset');
      return { as: null, status: 200, json: { token, newPassword: 'another-horse-2' }, readBack: userRow(w, u.id) };
    },
  },
  'POST /api/v1/users/verify-email': {
    access: 'public',
    async valid(w) {
      const { u, token } = await mailedLink(w, 'verify');
      return { as: null, status: 200, json: { token }, readBack: userRow(w, u.id) };
    },
  },
  'POST /api/v1/users/resend-verification': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200 };
    },
  },
};
