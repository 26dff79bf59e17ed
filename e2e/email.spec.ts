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

test('a new address: the section says a link went to it, the mail arrives there, and following it makes it the confirmed address', async ({
  page,
  baseURL,
}) => {
  const user = newUser('move');
  const made = await page.request.post('/api/v1/users/register', { headers: { origin: baseURL! }, multipart: { ...user } });
  expect(made.status()).toBe(201);
  const signedIn = await page.request.post('/api/v1/users/login', { headers: { origin: baseURL! }, data: { email: user.email, password: user.password } });
  expect(signedIn.ok()).toBe(true);

  await page.goto(`/${user.username}/devices`);
  const section = page.getByRole('region', { name: 'Email address' });
  await expect(section.getByTestId('account-email')).toHaveText(user.email);
  await expect(section).toContainText('Not confirmed');
  await expect(section.getByRole('button', { name: 'Send the link again' })).toBeVisible();

  const moved = `moved-${user.email}`;
  await section.getByLabel('New email address').fill(moved);
  await section.getByRole('button', { name: 'Change address' }).click();
  await expect(section.getByText(`We sent a link to ${moved}; your address changes when you follow it.`)).toBeVisible();
  await expect(section.getByTestId('account-email')).toHaveText(user.email);

  const received = await mail.next(moved, 'Confirm your email address', 30_000);
  const { url } = linkToken(received, '/verify-email');
  await page.goto(url.pathname + url.search);
  await expect(page.getByText(`Your email address ${moved} is confirmed.`)).toBeVisible();

  await page.goto(`/${user.username}/devices`);
  await expect(section.getByTestId('account-email')).toHaveText(moved);
  await expect(section).toContainText('Confirmed');
  await expect(section).not.toContainText('Not confirmed');
  await expect(section.getByRole('button', { name: 'Send the link again' })).toHaveCount(0);
});
