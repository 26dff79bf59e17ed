import type { OpenIdProvider } from '../server/test/support/openid-provider';
import { expect, test } from './fixtures';
import { newUser } from './helpers';
import { E2E_SSO_CLIENT } from './single-sign-on-client';
import { startE2eProvider } from './single-sign-on-provider';

// Runs in its own project against a server with a single sign-on provider (see playwright.config.ts):
// a real OpenID Provider this journey runs, whose own sign-in form takes any password.
let provider: OpenIdProvider;
test.beforeAll(async ({ baseURL }) => {
  provider = await startE2eProvider(baseURL!);
});
test.afterAll(async () => {
  await provider?.close();
});

/** Signs in on the provider's own page, as a person there would. */
async function atProvider(page: import('@playwright/test').Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever the provider asks');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('signing up with the provider makes the account, and the next sign-in finds it', async ({ page }) => {
  const who = `ada${Date.now().toString(36)}`;
  provider.accounts.set(who, { email: `${who}@campus.example`, email_verified: true, name: 'Ada Lovelace', preferred_username: who });

  await page.goto('/signup');
  await page.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` }).click();
  await atProvider(page, who);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  const me = await page.request.get('/api/v1/users/user/current');
  expect((await me.json()).data).toMatchObject({ username: who, fullName: 'Ada Lovelace', email: `${who}@campus.example` });

  // Signed out here, still signed in at the provider: the next sign-in asks nothing.
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.goto('/login');
  await page.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect((await (await page.request.get('/api/v1/users/user/current')).json()).data.username).toBe(who);

  await page.goto(`/${who}/devices`);
  const linked = page.getByTestId('linked-account');
  await expect(linked).toHaveCount(1);
  await expect(linked).toContainText(E2E_SSO_CLIENT.label);
  await expect(linked).toContainText(`${who}@campus.example`);
});

test('a password account links the provider from Sign-in and security, then signs in with it', async ({ page, baseURL }) => {
  const user = newUser('link');
  expect((await page.request.post('/api/v1/users/register', { headers: { origin: baseURL! }, multipart: { ...user } })).status()).toBe(201);
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  await page.goto(`/${user.username}/devices`);
  await expect(page.getByText('No account is linked yet.')).toBeVisible();
  await page.getByRole('link', { name: `Link ${E2E_SSO_CLIENT.label}` }).click();
  const atCampus = `grace${Date.now().toString(36)}`;
  await atProvider(page, atCampus);
  await expect(page).toHaveURL(new RegExp(`/${user.username}/devices$`));
  await expect(page.getByTestId('linked-account')).toContainText(E2E_SSO_CLIENT.label);

  // Signed in at the provider since linking: the sign-in with it asks nothing more.
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.goto('/login');
  await page.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect((await (await page.request.get('/api/v1/users/user/current')).json()).data.username).toBe(user.username);
});

test('an account whose address is taken is not made: the sign-in page says to link instead', async ({ page, baseURL }) => {
  const user = newUser('taken');
  expect((await page.request.post('/api/v1/users/register', { headers: { origin: baseURL! }, multipart: { ...user } })).status()).toBe(201);
  const who = `twin${Date.now().toString(36)}`;
  provider.accounts.set(who, { email: user.email, email_verified: true });
  await page.goto('/login');
  await page.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` }).click();
  await atProvider(page, who);
  await expect(page).toHaveURL(/\/login\?ssoError=/);
  await expect(page.getByRole('alert')).toHaveText(
    `An account with this email address already exists: sign in to it, then link ${E2E_SSO_CLIENT.label} from Sign-in and security`,
  );
});

// Last: it changes the site for every journey after it.
test('with password sign-in turned off, people sign in only through the provider, and the admin keeps a password', async ({ page, baseURL }) => {
  const admin = { ...newUser('ssoadmin'), email: 'e2e-admin@example.com' };
  expect((await page.request.post('/api/v1/users/register', { headers: { origin: baseURL! }, multipart: { ...admin } })).status()).toBe(201);
  await page.goto('/login');
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  await page.goto('/admin/settings');
  await page.getByLabel('Password sign-in').uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();

  await page.goto('/signup');
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` })).toBeVisible();

  await page.goto('/login');
  await expect(page.getByLabel('Password')).toBeHidden();
  await page.getByText('Administrators: sign in with a password').click();
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
});
