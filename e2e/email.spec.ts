import { linkToken, type MailServer, startMailServer } from '../server/test/support/mail-server';
import { expect, test } from './fixtures';
import { newUser } from './helpers';

// Runs in its own project against a server that sends mail (see playwright.config.ts) to the SMTP
// server this journey runs.
let mail: MailServer;
test.beforeAll(async () => {
  mail = await startMailServer(Number(process.env.E2E_MAIL_SMTP_PORT));
});
test.afterAll(async () => {
  await mail?.close();
});

test('forgot password: the mailed link sets a new password, and the account signs in with it', async ({ page, baseURL }) => {
  const user = newUser('mail');
  const made = await page.request.post('/api/v1/users/register', { headers: { origin: baseURL! }, multipart: { ...user } });
  expect(made.status()).toBe(201);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByText('If an account uses that address, a link is on its way.')).toBeVisible();

  const received = await mail.next(user.email, 'Reset your password', 30_000);
  const { url } = linkToken(received, '/reset-password');
  expect(url.origin).toBe(new URL(baseURL!).origin);
  await page.goto(url.pathname + url.search);
  await page.getByLabel('New password', { exact: true }).fill('a-brand-new-pass-1');
  await page.getByLabel('New password again').fill('a-brand-new-pass-1');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByText('Your password is changed, and every device was signed out.')).toBeVisible();

  await page.getByRole('link', { name: 'Log in with the new password' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('a-brand-new-pass-1');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  // The link worked once.
  const again = await page.request.post('/api/v1/users/reset-password', {
    headers: { origin: baseURL! },
    data: { token: url.searchParams.get('token'), newPassword: 'yet-another-pass-2' },
  });
  expect(again.status()).toBe(400);
});
