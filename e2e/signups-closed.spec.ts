import { expect, test } from './fixtures';
import { newUser } from './helpers';

// Runs in its own project against a server of its own (see playwright.config.ts): closing sign-ups
// there cannot refuse the sign-ups of journeys running at the same time on the main server.
test('an admin closes sign-ups; the sign-up page says so and POST /users/register is refused', async ({ page, baseURL, playwright }) => {
  const site = { origin: baseURL! };
  const admin = { ...newUser('adm'), email: 'e2e-admin@example.com' };
  const made = await page.request.post('/api/v1/users/register', { headers: site, multipart: { ...admin } });
  if (!made.ok()) expect(made.status()).toBe(409);
  expect((await page.request.post('/api/v1/users/login', { headers: site, data: { email: admin.email, password: admin.password } })).ok()).toBe(true);

  await page.goto('/admin/settings');
  await page.getByLabel('Sign-ups').selectOption('closed');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  try {
    const visitor = await (await page.context().browser()!.newContext({ baseURL })).newPage();
    await visitor.goto('/signup');
    await expect(visitor.getByRole('heading', { name: 'Sign-ups are closed' })).toBeVisible();
    await expect(visitor.getByRole('status')).toHaveText(/is not taking new accounts right now/);
    await visitor.context().close();

    const api = await playwright.request.newContext({ baseURL });
    const refused = await api.post('/api/v1/users/register', { headers: site, multipart: { ...newUser('late') } });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toBe('Sign-ups are closed on this site');
  } finally {
    await page.request.patch('/api/v1/admin/settings', { headers: site, data: { signupMode: 'open' } });
  }
});
