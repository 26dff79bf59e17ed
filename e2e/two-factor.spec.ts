import { Secret, TOTP } from 'otpauth';
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { loginViaUi, newUser, signUpViaApi } from './helpers';

/** What an authenticator app shows for the secret, stepsAhead periods of 30 s from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

test('two-factor sign-in: turned on from Your devices, then signing in with a code and with a recovery code', async ({ page, request }) => {
  const user = newUser('tfa');
  await signUpViaApi(request, user);
  await loginViaUi(page, user);

  await page.goto(`/${user.username}/devices`);
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await section.getByTestId('two-factor-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await section.getByLabel('Code from the app').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();

  // The recovery codes, shown once, to download or copy.
  const shown = section.getByTestId('recovery-code');
  await expect(shown).toHaveCount(10);
  const codes = (await shown.allTextContents()).map((c) => c.trim());
  const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe('reelhouse-recovery-codes.txt');
  const saved = await readFile((await download.path())!, 'utf8');
  for (const c of codes) expect(saved).toContain(c);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section).toContainText('Signing in asks for a code from your authenticator app');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Two-factor authentication' })).toContainText('Signing in asks for a code');

  // Signing in again: the password, then the next code from the app.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toBeVisible();
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  expect((await page.context().cookies()).filter((c) => c.name === 'accessToken')).toEqual([]);
  await codeField.fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  // And with a recovery code, which works once.
  await page.getByRole('button', { name: 'Logout' }).click();
  for (const attempt of ['first', 'again'] as const) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    if (attempt === 'first') {
      await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      await page.getByRole('button', { name: 'Logout' }).click();
    } else {
      await expect(page.getByText('The recovery code is not right, or was used already')).toBeVisible();
    }
  }
});
