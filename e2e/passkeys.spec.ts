import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { newUser, toast } from './helpers';

/**
 * Chromium's virtual authenticator stands in for the device's own (a phone's or laptop's screen
 * lock): it keeps discoverable credentials and verifies the user without a prompt.
 */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

test.describe('passkeys', () => {
  test('add a passkey, sign out, and sign in with it without typing an email', async ({ page, baseURL }) => {
    const user = newUser('passkey');
    // Signed up and in through the page's own requests, from this server's origin.
    const origin = { origin: baseURL! };
    expect((await page.request.post('/api/v1/users/register', { headers: origin, multipart: { ...user } })).status()).toBe(201);
    expect((await page.request.post('/api/v1/users/login', { headers: origin, data: { email: user.email, password: user.password } })).status()).toBe(200);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await page.goto(`/${user.username}/devices`);
    const section = page.getByRole('region', { name: 'Passkeys' });
    await expect(section).toContainText('You have no passkeys yet.');
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    // Named after the browser that added it (the journeys' browser says it is Chrome on Windows).
    await expect(toast(page, /Passkey added: Chrome on Windows/)).toBeVisible();
    const row = section.getByTestId('passkey');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Never used');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(credentials[0]!.rpId).toBe('localhost');

    // Signed out, the sign-in page asks the browser at once for a passkey to offer among the email
    // field's suggestions; the virtual authenticator picks the one it holds as a person would.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    const me = await page.request.get('/api/v1/users/user/current');
    expect(((await me.json()) as { data: { username: string } }).data.username).toBe(user.username);
    const signCount = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount;
    // At least once: a request the sign-out's own navigation started may have been answered before the reload dropped it.
    const afterAutofill = await signCount();
    expect(afterAutofill).toBeGreaterThan(0);

    // A browser that cannot offer passkeys in suggestions has the button: the one way it is tried here.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await page.context().clearCookies();
    await page.goto('/login');
    await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    const again = await page.request.get('/api/v1/users/user/current');
    expect(((await again.json()) as { data: { username: string } }).data.username).toBe(user.username);
    expect(await signCount()).toBe(afterAutofill + 1);

    // The sign-in shows on the passkey; removing it (after saying yes) leaves none.
    await page.goto(`/${user.username}/devices`);
    await expect(row).toContainText('Last used');
    await row.getByRole('button', { name: /^Remove / }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove passkey' });
    await expect(dialog).toContainText('It can no longer be used to sign in');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(toast(page, /^Removed /)).toBeVisible();
    await expect(section).toContainText('You have no passkeys yet.');

    // The device still holds the credential, but the site no longer knows it.
    await page.context().clearCookies();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByText('This passkey is not known on this site')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  });
});
