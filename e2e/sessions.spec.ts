import { expect, test, watchForCspViolations } from './fixtures';
import { loginViaUi, newUser, signUpViaApi } from './helpers';

test.describe('sessions', () => {
  test('two tabs reloading at once after the access token expired both stay signed in', async ({ browser, request }) => {
    test.setTimeout(120_000);
    const user = newUser('tabs');
    await signUpViaApi(request, user);
    const context = await browser.newContext();
    const violations = watchForCspViolations(context);
    try {
      const first = await context.newPage();
      await loginViaUi(first, user);
      const second = await context.newPage();
      await second.goto(`/${user.username}/watch-history`);
      await expect(second.getByRole('button', { name: 'Logout' })).toBeVisible();

      // The access cookie lives exactly as long as the token, so an expired token is a missing cookie.
      await context.clearCookies({ name: 'accessToken' });
      // Answered refreshes only: a page may abort a call of its own while it reloads.
      const refreshes: Promise<{ token: string | undefined; status: number }>[] = [];
      const onResponse = (res: import('@playwright/test').Response) => {
        if (!res.url().endsWith('/api/v1/users/refresh-token')) return;
        refreshes.push(
          res
            .request()
            .allHeaders()
            .then((h) => ({ token: /refreshToken=([^;]+)/.exec(h.cookie ?? '')?.[1], status: res.status() })),
        );
      };
      context.on('response', onResponse);
      // Which tab refreshes first is up to timing; holding each refresh until the other tab's arrives
      // (or 30 s pass: a loaded machine can take long to reload a tab) makes both go out with the
      // same token, as on a slow connection.
      let arrived = 0;
      let releaseAll = () => {};
      const bothArrived = new Promise<void>((resolve) => {
        releaseAll = resolve;
        setTimeout(resolve, 30_000);
      });
      await context.route('**/api/v1/users/refresh-token', async (route) => {
        if (++arrived >= 2) releaseAll();
        await bothArrived;
        await route.continue().catch(() => {});
      });
      await Promise.all([first.reload(), second.reload()]);
      await bothArrived;
      await context.unroute('**/api/v1/users/refresh-token');

      for (const page of [first, second]) await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      await expect(second.getByRole('heading', { name: 'Watch history' })).toBeVisible();
      // Both tabs refreshed, with one and the same token, and every refresh succeeded.
      const answered = await Promise.all(refreshes);
      expect(answered.length).toBeGreaterThanOrEqual(2);
      expect(answered.map((r) => r.status)).toEqual(answered.map(() => 200));
      expect(answered[0]!.token).toBeTruthy();
      expect(new Set(answered.map((r) => r.token)).size).toBe(1);
      context.off('response', onResponse);

      // The session lives on: reloading both again needs no new sign-in.
      await context.clearCookies({ name: 'accessToken' });
      await Promise.all([first.reload(), second.reload()]);
      for (const page of [first, second]) await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      const me = await first.request.get('/api/v1/users/user/current');
      expect(me.status()).toBe(200);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
