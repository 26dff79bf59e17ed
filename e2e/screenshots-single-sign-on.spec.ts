import type { OpenIdProvider } from '../server/test/support/openid-provider';
import { expect, test } from './fixtures';
import { newUser } from './helpers';
import { shoot } from './screenshot-kit';
import { E2E_SSO_CLIENT } from './single-sign-on-client';
import { startE2eProvider } from './single-sign-on-provider';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-single-sign-on.spec.ts   (writes docs/screenshots/*.png)
let provider: OpenIdProvider;
test.beforeAll(async ({ baseURL }) => {
  provider = await startE2eProvider(baseURL!);
});
test.afterAll(async () => {
  await provider?.close();
});

const FORMS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

test('screenshots of single sign-on: the sign-in and sign-up pages, linked accounts, password sign-in off', async ({ browser }) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL!;
  provider.accounts.set('ada', { email: 'ada.lovelace@campus.example', email_verified: true, name: 'Ada Lovelace', preferred_username: 'ada.lovelace' });
  const contextFor = (scheme: 'light' | 'dark', form: (typeof FORMS)[number]) =>
    browser.newContext({ baseURL, colorScheme: scheme, viewport: form.viewport, deviceScaleFactor: 1, isMobile: form.isMobile, hasTouch: form.isMobile });

  // An account made by signing in with the provider, seen on its security page.
  const first = await contextFor('light', FORMS[0]);
  const page = await first.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` }).click();
  await page.locator('input[name="login"]').fill('ada');
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  const state = await first.storageState();
  await first.close();

  for (const scheme of ['light', 'dark'] as const) {
    for (const form of FORMS) {
      const out = await contextFor(scheme, form);
      const p = await out.newPage();
      await p.goto('/login');
      await expect(p.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` })).toBeVisible();
      await shoot(p, `sso-login-${form.name}-${scheme}`);
      await p.goto('/signup');
      await expect(p.getByRole('link', { name: `Sign in with ${E2E_SSO_CLIENT.label}` })).toBeVisible();
      await shoot(p, `sso-signup-${form.name}-${scheme}`);
      await p.goto(`/login?ssoError=${encodeURIComponent(`${E2E_SSO_CLIENT.label} did not sign you in: End-User aborted interaction`)}`);
      await expect(p.getByRole('alert')).toBeVisible();
      await shoot(p, `sso-login-refused-${form.name}-${scheme}`);
      await out.close();

      const signedIn = await browser.newContext({
        baseURL,
        colorScheme: scheme,
        viewport: form.viewport,
        deviceScaleFactor: 1,
        isMobile: form.isMobile,
        hasTouch: form.isMobile,
        storageState: state,
      });
      const q = await signedIn.newPage();
      await q.goto('/ada.lovelace/devices');
      await expect(q.getByTestId('linked-account')).toHaveCount(1);
      await q.getByRole('heading', { name: 'Linked accounts' }).scrollIntoViewIfNeeded();
      await shoot(q, `sso-linked-accounts-${form.name}-${scheme}`, { blur: true });
      await signedIn.close();
    }
  }

  // Last: the site signs people in through the provider alone.
  const admin = { ...newUser('shotadmin'), email: 'e2e-admin@example.com' };
  const adminContext = await contextFor('light', FORMS[0]);
  const a = await adminContext.newPage();
  expect((await a.request.post('/api/v1/users/register', { headers: { origin: baseURL }, multipart: { ...admin } })).status()).toBe(201);
  expect((await a.request.post('/api/v1/users/login', { headers: { origin: baseURL }, data: { email: admin.email, password: admin.password } })).ok()).toBe(
    true,
  );
  expect((await a.request.patch('/api/v1/admin/settings', { headers: { origin: baseURL }, data: { passwordSignIn: false } })).ok()).toBe(true);
  await a.goto('/admin/settings');
  await expect(a.getByLabel('Password sign-in')).not.toBeChecked();
  await shoot(a, 'sso-admin-settings-desktop-light');
  await adminContext.close();
  for (const scheme of ['light', 'dark'] as const) {
    for (const form of FORMS) {
      const out = await contextFor(scheme, form);
      const p = await out.newPage();
      await p.goto('/login');
      await expect(p.getByText('Administrators: sign in with a password')).toBeVisible();
      await shoot(p, `sso-login-password-off-${form.name}-${scheme}`);
      await out.close();
    }
  }
});
