import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, loginViaUi, newUser, signUpViaApi } from './helpers';

test.describe('accounts', () => {
  test('sign up without images gets the bundled defaults, then log out and back in', async ({ page }) => {
    const user = newUser('plain');
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.getByLabel('Full name').fill(user.fullName);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm password').fill('something-else');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm password').fill(user.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    // Signed in and sent back one step (home).
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    await page.goto(`/${user.username}`);
    await expect(page.getByRole('heading', { name: user.fullName })).toBeVisible();
    const avatar = page.getByRole('img', { name: `${user.fullName} avatar` });
    await expect(avatar).toBeVisible();
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Demo Account Login' })).toBeVisible();

    // Wrong password: silent 401, still signed out.
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);

    await loginViaUi(page, user);
    await expect(page.getByRole('link', { name: 'Demo Account Login' })).toHaveCount(0);
    // A signed-in user opening /login is sent back.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
  });

  test('sign up with an avatar and a cover image', async ({ page }) => {
    const user = newUser('pics');
    await page.goto('/signup');
    await page.getByLabel('Full name').fill(user.fullName);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm password').fill(user.password);
    await page.getByLabel('Avatar (optional)').setInputFiles(FIXTURES.avatar);
    await page.getByLabel('Cover image (optional)').setInputFiles(FIXTURES.cover);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    const me = await (await page.request.get('/api/v1/users/user/current')).json();
    expect(me.data.username).toBe(user.username);
    await page.goto(`/${user.username}`);
    const cover = page.getByRole('img', { name: `${user.fullName} cover` });
    await expect(cover).toBeVisible();
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const src = await cover.getAttribute('src');
    // Absolute under MEDIA_BASE_URL, which the journeys' server sets.
    expect(src).toMatch(/^http:\/\/localhost:\d+\/media\//);
  });

  test('demo login needs the agreement box, then signs in as the demo account', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Demo Account Login' }).click();
    await page.getByRole('button', { name: 'Proceed' }).click();
    await expect(page.getByText('Please confirm that you have read and agree to the guidelines before proceeding.')).toBeVisible();
    await page.getByLabel('I have read and agree to the guidelines').check();
    await page.getByRole('button', { name: 'Proceed' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    const me = await (await page.request.get('/api/v1/users/user/current')).json();
    expect(me.data.email).toBe('demo@reelhouse.dev');
  });

  for (const path of [
    '/someone',
    '/someone/add-video',
    '/someone/edit-profile',
    '/someone/change-password',
    '/someone/playlists',
    '/someone/liked-videos',
    '/someone/watch-history',
    '/playlist/abcdef123456',
  ]) {
    test(`signed out, ${path} redirects to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    });
  }

  test('edit profile, change password, then delete the account', async ({ page, request }) => {
    const user = await signUpViaApi(page.request);
    await page.goto(`/${user.username}/edit-profile`);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'No update value provided.' })).toBeVisible();

    const other = await signUpViaApi(request);
    await page.getByLabel('Username').fill(other.username);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Username already exists' })).toBeVisible();

    await page.getByLabel('Full name').fill('Renamed Person');
    await page.getByLabel('Username').fill('');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Profile updated successfully' })).toBeVisible();
    await page.goto(`/${user.username}`);
    await expect(page.getByRole('heading', { name: 'Renamed Person' })).toBeVisible();

    await page.goto(`/${user.username}/edit-profile`);
    const topAvatar = page.getByRole('link', { name: 'Your profile' }).locator('img');
    const before = await topAvatar.getAttribute('src');
    await page.getByLabel('Change avatar').setInputFiles(FIXTURES.avatar);
    await expect(page.getByRole('status').filter({ hasText: 'Avatar updated successfully' })).toBeVisible();
    await expect(topAvatar).not.toHaveAttribute('src', before ?? '');
    await page.getByLabel('Change cover image').setInputFiles(FIXTURES.cover);
    await expect(page.getByRole('status').filter({ hasText: 'Cover image updated successfully' })).toBeVisible();
    await page.getByRole('link', { name: 'Change Password' }).click();
    await expect(page).toHaveURL(new RegExp(`/${user.username}/change-password$`));
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('All fields are required.')).toBeVisible();
    await page.getByLabel('Old password').fill('not-my-password');
    await page.getByLabel('New password').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Old password is incorrect', { exact: true })).toBeVisible();
    await page.getByLabel('Old password').fill(user.password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();

    await page.goto(`/${user.username}/edit-profile`);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await expect(dialog.getByText('Are you sure you want to delete your account?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    // The new password no longer works: the account is gone.
    const res = await page.request.post('/api/v1/users/login', { headers: FROM_SITE, data: { email: user.email, password: 'brand-new-pass' } });
    expect(res.status()).toBe(401);
  });
});

test.describe('layout', () => {
  test('pages come with a Content-Security-Policy that forbids framing (every journey fails on a violation)', async ({ page }) => {
    const res = await page.goto('/');
    const headers = res!.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("worker-src 'self' blob:");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
  });

  test('theme toggle flips between light and dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).toHaveClass(/dark/);
    await page.getByTestId('theme-toggle').click();
    await expect(html).not.toHaveClass(/dark/);
    await page.getByTestId('theme-toggle').click();
    await expect(html).toHaveClass(/dark/);
    // Follows the system when it changes.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).not.toHaveClass(/dark/);
  });

  test('the dark class is set before the app runs (no flash)', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/dark/);
  });

  test('sidebar is open on desktop and toggled by the menu button', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    for (const name of ['Home', 'Add Video', 'Profile', 'Playlists', 'Demo Account Login']) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav).toBeHidden();
  });

  test('on a 390px phone the sidebar starts closed and the menu button opens it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(nav).toBeVisible();
    await nav.getByRole('link', { name: 'Demo Account Login' }).click();
    await expect(page).toHaveURL(/\/demo-login$/);
    await expect(nav).toBeHidden();
  });

  test('unknown paths show Home', async ({ page }) => {
    await page.goto('/this/path/does/not/exist');
    await expect(page.getByRole('search')).toBeVisible();
  });
});
