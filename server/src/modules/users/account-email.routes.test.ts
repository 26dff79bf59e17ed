import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/support/processes.js';
import { linkToken, type MailServer, startMailServer } from '../../../test/support/mail-server.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const PUBLIC_URL = 'https://video.example.test';
const RESET = 'Reset your password';
const CONFIRM = 'Confirm your email address';

const forgot = (t: TestApp, email: string) => t.call({ method: 'POST', url: `${API}/users/forgot-password`, payload: { email } });
const reset = (t: TestApp, token: string, newPassword: string) =>
  t.call({ method: 'POST', url: `${API}/users/reset-password`, payload: { token, newPassword } });
const verify = (t: TestApp, token: string) => t.call({ method: 'POST', url: `${API}/users/verify-email`, payload: { token } });
const resend = (t: TestApp, as?: SignedIn) => t.call({ method: 'POST', url: `${API}/users/resend-verification`, ...(as ? { as } : {}) });
const login = (t: TestApp, email: string, password: string) =>
  t.call({ method: 'POST', url: `${API}/users/login`, headers: { 'x-return-tokens': 'true' }, payload: { email, password } });
const current = (t: TestApp, as: SignedIn) => t.call({ method: 'GET', url: `${API}/users/user/current`, as });

/** A sign-up that stops before signing in (it may not be allowed to). */
async function register(t: TestApp, tag: string) {
  const n = `${tag}${Date.now() % 1e6}${Math.floor(Math.random() * 1e4)}`;
  const fields = { username: `u${n}`, email: `u${n}@example.com`, password: 'correct-horse-1', fullName: `User ${n}` };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await t.call({ method: 'POST', url: `${API}/users/register`, payload: form });
  expect(res.statusCode).toBe(201);
  return { ...fields, id: res.data._id as string };
}

describe('with mail and optional checks', () => {
  let t: TestApp;
  let mail: MailServer;
  const logs: string[] = [];
  beforeAll(async () => {
    mail = await startMailServer();
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp({
      serveSourceAsIs: false,
      env: { SMTP_URL: mail.url, MAIL_FROM: 'Reelhouse <site@example.test>', PUBLIC_URL, LOG_LEVEL: 'info' },
      logTo: sink,
    });
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it('says in GET /instance that mail is on, with optional checks', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.email).toEqual({ enabled: true, verification: 'optional' });
  });

  it('mails a reset link that sets the password once and signs every device out', async () => {
    const u = await t.signUp();
    const other = await login(t, u.email, u.password);
    const asked = await forgot(t, u.email);
    expect(asked.statusCode).toBe(200);
    expect(asked.message).toBe('If an account uses that address, a link to reset its password is on its way');
    const received = await mail.next(u.email, RESET);
    expect(received.from).toBe('site@example.test');
    expect(received.subject).toBe('Reset your password');
    const { url, token } = linkToken(received, '/reset-password');
    expect(url.origin).toBe(PUBLIC_URL);
    expect(received.html).toContain(`${PUBLIC_URL}/reset-password?token=${token}`);

    const done = await reset(t, token, 'brand-new-horse-2');
    expect(done.statusCode).toBe(200);
    // Every session of the account is gone: access tokens and refresh tokens alike.
    expect((await current(t, u)).statusCode).toBe(401);
    const refreshed = await t.call({ method: 'POST', url: `${API}/users/refresh-token`, payload: { refreshToken: other.data.refreshToken } });
    expect(refreshed.statusCode).toBe(401);
    expect((await login(t, u.email, u.password)).statusCode).toBe(401);
    expect((await login(t, u.email, 'brand-new-horse-2')).statusCode).toBe(200);

    const again = await reset(t, token, 'third-new-horse-3');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/unknown, already used or expired/);
    expect((await login(t, u.email, 'brand-new-horse-2')).statusCode).toBe(200);
  });

  it('answers an unknown address the same way and mails nothing to it', async () => {
    const u = await t.signUp();
    const unknown = `nobody${Date.now()}@example.com`;
    const a = await forgot(t, unknown);
    const b = await forgot(t, u.email);
    expect([a.statusCode, a.body]).toEqual([b.statusCode, b.body]);
    // The known address's mail was asked for after the unknown one's job, so that job has run by now.
    await mail.next(u.email, RESET);
    await new Promise((r) => setTimeout(r, 500));
    expect(mail.received.filter((m) => m.to === unknown)).toEqual([]);
    await expect.poll(() => t.ctx.db.selectFrom('mails').select('id').execute(), { timeout: 5000 }).toEqual([]);
  });

  it('refuses an expired link, an unknown one, and one for the other purpose', async () => {
    const u = await t.signUp();
    await forgot(t, u.email);
    const { token } = linkToken(await mail.next(u.email, RESET), '/reset-password');
    await t.ctx.db
      .updateTable('account_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', u.id)
      .execute();
    const expired = await reset(t, token, 'brand-new-horse-2');
    expect(expired.statusCode).toBe(400);
    expect((await reset(t, 'x'.repeat(43), 'brand-new-horse-2')).statusCode).toBe(400);
    expect((await verify(t, token)).statusCode).toBe(400);
    expect((await login(t, u.email, u.password)).statusCode).toBe(200);
  });

  it('keeps to the sign-up password rules', async () => {
    const u = await t.signUp();
    await forgot(t, u.email);
    const { token } = linkToken(await mail.next(u.email, RESET), '/reset-password');
    const short = await reset(t, token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.body).toMatch(/at least 8 characters/);
    // The refused attempt did not spend the link.
    expect((await reset(t, token, 'long-enough-1')).statusCode).toBe(200);
  });

  it('refuses bad input with a clear message', async () => {
    expect((await forgot(t, 'not-an-address')).statusCode).toBe(400);
    expect((await t.call({ method: 'POST', url: `${API}/users/reset-password`, payload: { newPassword: 'long-enough-1' } })).body).toMatch(/token is required/);
    expect((await verify(t, '')).statusCode).toBe(400);
  });

  it('limits reset mails to one address per hour', async () => {
    const u = await t.signUp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await forgot(t, u.email)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('mails a new account a link that confirms its address', async () => {
    const u = await t.signUp();
    expect((await current(t, u)).data.emailVerified).toBe(false);
    const received = await mail.next(u.email, CONFIRM);
    const { url, token } = linkToken(received, '/verify-email');
    expect(url.origin).toBe(PUBLIC_URL);
    const done = await verify(t, token);
    expect(done.statusCode).toBe(200);
    expect(done.data.emailVerified).toBe(true);
    expect((await current(t, u)).data.emailVerified).toBe(true);
    expect((await verify(t, token)).statusCode).toBe(400);
    const already = await resend(t, u);
    expect([already.statusCode, already.json().message]).toEqual([400, 'Your email address is already confirmed']);
  });

  it('mails a new link to a signed-in account that asks, and refuses signed out', async () => {
    const u = await t.signUp();
    await mail.next(u.email, CONFIRM);
    expect((await resend(t)).statusCode).toBe(401);
    expect((await resend(t, u)).statusCode).toBe(200);
    const { token } = linkToken(await mail.next(u.email, CONFIRM), '/verify-email');
    expect((await verify(t, token)).data.emailVerified).toBe(true);
  });

  it('changes the address only once a link mailed to the new one is followed', async () => {
    const u = await t.signUp();
    const newEmail = `moved${Date.now()}@example.com`;
    const taken = await t.signUp();
    const refused = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: u, payload: { email: taken.email } });
    expect(refused.statusCode).toBe(409);
    const asked = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: u, payload: { email: newEmail } });
    expect(asked.statusCode).toBe(200);
    expect(asked.data.email).toBe(u.email);
    const received = await mail.next(newEmail, CONFIRM);
    expect(received.text).toMatch(/asked to use this address/);
    expect((await login(t, u.email, u.password)).statusCode).toBe(200);
    const done = await verify(t, linkToken(received, '/verify-email').token);
    expect(done.statusCode).toBe(200);
    expect(done.data).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await login(t, newEmail, u.password)).statusCode).toBe(200);
    expect((await login(t, u.email, u.password)).statusCode).toBe(401);
  });

  it('writes no address or token to the log', async () => {
    const u = await t.signUp();
    const verifyToken = linkToken(await mail.next(u.email, CONFIRM), '/verify-email').token;
    await forgot(t, u.email);
    const resetToken = linkToken(await mail.next(u.email, RESET), '/reset-password').token;
    await verify(t, verifyToken);
    await reset(t, resetToken, 'brand-new-horse-2');
    const text = logs.join('\n');
    expect(text).toContain('mail sent');
    for (const secret of [u.email, verifyToken, resetToken, 'brand-new-horse-2']) expect(text).not.toContain(secret);
  });
});

describe('with required checks', () => {
  let t: TestApp;
  let mail: MailServer;
  beforeAll(async () => {
    mail = await startMailServer();
    t = await createTestApp({ serveSourceAsIs: false, env: { SMTP_URL: mail.url, EMAIL_VERIFICATION: 'required' } });
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it('refuses to sign in an unconfirmed account, with no session, until the link is followed', async () => {
    const u = await register(t, 'req');
    const refused = await login(t, u.email, u.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Confirm your email address first/);
    expect(refused.cookies).toEqual([]);
    expect(await t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
    // Without PUBLIC_URL the link is built on the origin the request was sent to.
    const { url, token } = linkToken(await mail.next(u.email, CONFIRM), '/verify-email');
    expect(url.origin).toBe('http://localhost');
    expect((await verify(t, token)).statusCode).toBe(200);
    expect((await login(t, u.email, u.password)).statusCode).toBe(200);
  });

  it('counts a password reset by mail as confirming the address', async () => {
    const u = await register(t, 'rst');
    await mail.next(u.email, CONFIRM);
    await forgot(t, u.email);
    const { token } = linkToken(await mail.next(u.email, RESET), '/reset-password');
    expect((await reset(t, token, 'brand-new-horse-2')).statusCode).toBe(200);
    expect((await login(t, u.email, 'brand-new-horse-2')).statusCode).toBe(200);
  });
});

describe('without mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ serveSourceAsIs: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('offers none of it: GET /instance says so, and the routes refuse with a clear message', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.email).toEqual({ enabled: false, verification: 'off' });
    const u = await t.signUp();
    expect((await current(t, u)).data.emailVerified).toBe(true);
    const asked = await forgot(t, u.email);
    expect([asked.statusCode, asked.json().message]).toEqual([400, "This site does not send mail: ask the site's admin"]);
    expect((await resend(t, u)).statusCode).toBe(400);
    expect((await reset(t, 'x'.repeat(43), 'long-enough-1')).statusCode).toBe(400);
  });

  it('changes the address at once, as it always did', async () => {
    const u = await t.signUp();
    const newEmail = `plain${Date.now()}@example.com`;
    const res = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: u, payload: { email: newEmail } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ email: newEmail, emailVerified: true });
    expect((await login(t, newEmail, u.password)).statusCode).toBe(200);
  });
});

describe('a mail server that is down when the mail is sent', () => {
  it('gets the mail once it is back, after the retry', async () => {
    const port = await freePort();
    const t = await createTestApp({ serveSourceAsIs: false, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    let mail: MailServer | null = null;
    try {
      const u = await t.signUp();
      await forgot(t, u.email);
      // The first attempts fail on a closed port; the rows wait for the next ones.
      await new Promise((r) => setTimeout(r, 1000));
      expect((await t.ctx.db.selectFrom('mails').select('id').execute()).length).toBe(2);
      mail = await startMailServer(port);
      await mail.next(u.email, CONFIRM, 30_000);
      linkToken(await mail.next(u.email, RESET, 30_000), '/reset-password');
      // The job removes a row once the server has taken its mail, a moment after the mail arrives.
      await expect.poll(() => t.ctx.db.selectFrom('mails').select('id').execute(), { timeout: 5000 }).toEqual([]);
    } finally {
      await t.close();
      await mail?.close();
    }
  }, 60_000);
});
