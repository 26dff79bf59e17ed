import { Secret, TOTP } from 'otpauth';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { FROM_SITE, newUser, signInAdmin, signUpViaApi, toast } from './helpers';

test("an admin changes a user's role in the admin area and finds it in the audit log", async ({ page, playwright, baseURL }) => {
  const other = await playwright.request.newContext({ baseURL });
  const target = await signUpViaApi(other, newUser('promo'));
  await signInAdmin(page);

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/overview$/);
  await expect(page.getByText('Storage used')).toBeVisible();

  const adminNav = page.getByRole('navigation', { name: 'Admin' });
  await adminNav.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Search by name or email').fill(target.username);
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users.getByRole('row')).toHaveCount(2);
  await users.getByLabel(`Role of ${target.username}`).selectOption('moderator');
  await expect(toast(page, `${target.username} is now moderator`)).toBeVisible();

  await adminNav.getByRole('link', { name: 'Audit log' }).click();
  const line = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: target._id! }).first();
  await expect(line).toContainText('user.role');
  await expect(line).toContainText('user → moderator');

  await adminNav.getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('region', { name: 'Lanes' })).toContainText('playable');

  // The new moderator sees only what moderators may use.
  const modPage = await (await page.context().browser()!.newContext({ baseURL })).newPage();
  await modPage.request.post('/api/v1/users/login', { headers: FROM_SITE, data: { email: target.email, password: target.password } });
  await modPage.goto('/admin');
  await expect(modPage).toHaveURL(/\/admin\/reports$/);
  await expect(modPage.getByRole('navigation', { name: 'Admin' }).getByRole('link')).toHaveText(['Reports', 'Audit log']);
  await modPage.context().close();
});

test('an admin backs the site up from the admin area and sees the backup reported good', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAdmin(page);
  await page.goto('/admin/backups');
  const backups = page.getByRole('region', { name: 'Backups', exact: true });
  await expect(backups).toContainText('Last good backup');
  await expect(backups).toContainText('Set BACKUP_CRON');
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(toast(page, 'Backup started')).toBeVisible();
  // The page reads the backups again every few seconds: the run shows, then turns good.
  const recent = page.getByRole('table', { name: 'Recent backups' });
  await expect(recent.getByRole('row').nth(1)).toContainText('By hand');
  await expect(recent.getByRole('row').nth(1)).toContainText('Good', { timeout: 60_000 });
  await expect(recent.getByRole('row').nth(1)).toContainText('reelhouse-');
  await expect(backups).not.toContainText('None yet');
  await expect(page.getByRole('button', { name: 'Back up now' })).toBeEnabled();
});

test('an admin turns off the two-factor sign-in of someone who lost their phone, who then signs in with the password alone', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  // The account turns two-factor sign-in on through the API, as its settings page does.
  const api = await playwright.request.newContext({ baseURL });
  const target = await signUpViaApi(api, newUser('lost'));
  const setup = await (await api.post('/api/v1/users/2fa/setup', { headers: FROM_SITE })).json();
  const code = new TOTP({ secret: Secret.fromBase32(setup.data.secret as string), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  expect((await api.post('/api/v1/users/2fa/enable', { headers: FROM_SITE, data: { code } })).ok()).toBe(true);

  await signInAdmin(page);
  await page.goto('/admin/users');
  await page.getByLabel('Search by name or email').fill(target.username);
  const users = page.getByRole('table', { name: 'Users' });
  const row = users.getByRole('row').filter({ hasText: target.email });
  await expect(row).toContainText('Two-factor on');
  await row.getByRole('button', { name: `Turn off two-factor authentication of ${target.username}` }).click();
  const dialog = page.getByRole('dialog', { name: `Turn off two-factor authentication of ${target.username}?` });
  await expect(dialog).toContainText(target.email);
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(toast(page, `Two-factor authentication of ${target.username} is off; they are signed out everywhere`)).toBeVisible();
  await expect(row).not.toContainText('Two-factor on');
  await expect(row.getByRole('button', { name: `Turn off two-factor authentication of ${target.username}` })).toHaveCount(0);

  // Their old session is over, and the password alone signs them in.
  expect((await api.get('/api/v1/users/user/current')).status()).toBe(401);
  const theirs = await browser.newPage();
  await theirs.goto('/login');
  await theirs.getByLabel('Email').fill(target.email);
  await theirs.getByLabel('Password').fill(target.password);
  await theirs.getByRole('button', { name: 'Login' }).click();
  await expect(theirs.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(theirs.getByLabel('Authentication code')).toHaveCount(0);
  await theirs.close();

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: target._id! }).first()).toContainText('user.two-factor-off');
  await api.dispose();
});

test('an admin blocks a remote server from the Federation screen, is told it is blocked already, and unblocks it', async ({ page }) => {
  await signInAdmin(page);
  const me = ((await (await page.request.get('/api/v1/users/user/current')).json()) as { data: { username: string } }).data.username;
  await page.goto('/admin/overview');
  const adminNav = page.getByRole('navigation', { name: 'Admin' });
  await adminNav.getByRole('link', { name: 'Federation' }).click();
  await expect(page).toHaveURL(/\/admin\/federation$/);
  await expect(page.getByText('No server is blocked.')).toBeVisible();

  const field = page.getByRole('textbox', { name: 'Server to block' });
  const blockButton = page.getByRole('button', { name: 'Block', exact: true });
  await field.fill('spam.example.net');
  await blockButton.click();
  await expect(toast(page, 'spam.example.net is blocked')).toBeVisible();
  const row = page.getByRole('table', { name: 'Blocked servers' }).getByRole('row').filter({ hasText: 'spam.example.net' });
  await expect(row).toContainText(`@${me}`);
  await expect(field).toHaveValue('');

  // The second time the server refuses, and says why under the field, which takes focus.
  await field.fill('spam.example.net');
  await blockButton.click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(/^spam\.example\.net is already blocked/);
  await expect(field).toBeFocused();
  await expect(row).toHaveCount(1);
  // The sweep of every page sees this screen empty: axe looks at the list, the refusal and the dialog here.
  const found = await seriousViolations(page, 'federation list and refusal');

  await row.getByRole('button', { name: 'Unblock spam.example.net' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unblock spam.example.net?' });
  await expect(dialog).toContainText('do not come back');
  found.push(...(await seriousViolations(page, 'federation unblock dialog')));
  expect(found).toEqual([]);
  await dialog.getByRole('button', { name: 'Unblock', exact: true }).click();
  await expect(toast(page, 'spam.example.net is unblocked')).toBeVisible();
  await expect(page.getByText('No server is blocked.')).toBeVisible();
  await expect(field).toBeFocused();

  await adminNav.getByRole('link', { name: 'Audit log' }).click();
  const lines = page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: 'spam.example.net' });
  await expect(lines.first()).toContainText('federation.unblock');
  await expect(lines.nth(1)).toContainText('federation.block');
});
