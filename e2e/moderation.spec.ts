import { expect, test, type APIRequestContext } from '@playwright/test';
import { FROM_SITE, loginViaUi, newUser, signUpViaApi, uploadViaApi, waitReady } from './helpers';

async function data<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = await res.json();
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data as T;
}

test('a reported video is taken down, its owner sees the reason and appeals, and an admin restores it', async ({ page, playwright, baseURL }) => {
  const ctx = () => playwright.request.newContext({ baseURL });
  const [ownerApi, reporterApi, modApi, adminApi] = await Promise.all([ctx(), ctx(), ctx(), ctx()]);
  const owner = await signUpViaApi(ownerApi);
  await signUpViaApi(reporterApi);
  const moderator = await signUpViaApi(modApi);
  const adminUser = { ...newUser('adm'), email: 'e2e-admin@example.com' };
  await signUpViaApi(adminApi, adminUser).catch(async () => {
    // A second run of the suite on the same data: the admin exists already.
    await data(await adminApi.post('/api/v1/users/login', { headers: FROM_SITE, data: { email: adminUser.email, password: adminUser.password } }));
  });
  await data(await adminApi.patch(`/api/v1/admin/users/${moderator._id}`, { headers: FROM_SITE, data: { role: 'moderator' } }));

  const video = await uploadViaApi(ownerApi, { title: 'Reported journey video' });
  await waitReady(ownerApi, video._id);

  const filed = await data<{ _id: string }>(
    await reporterApi.post('/api/v1/reports', {
      headers: FROM_SITE,
      data: { targetType: 'video', targetId: video._id, reason: 'violence', note: 'Hard to watch' },
    }),
  );
  const queue = await data<{ groups: { targetId: string; reports: { _id: string }[] }[] }>(await modApi.get('/api/v1/admin/reports?state=open'));
  expect(queue.groups.find((g) => g.targetId === video._id)?.reports.map((r) => r._id)).toContain(filed._id);
  await data(
    await modApi.patch(`/api/v1/admin/reports/${filed._id}`, { headers: FROM_SITE, data: { action: 'hide', note: 'Graphic violence without warning' } }),
  );
  expect((await reporterApi.get(`/api/v1/videos/${video._id}`)).status()).toBe(404);

  await loginViaUi(page, owner);
  await page.goto(`/video/${video._id}`);
  const notice = page.getByRole('region', { name: 'Takedown' });
  await expect(notice).toContainText('Reason: Graphic violence without warning');
  await notice.getByLabel('Appeal (you can appeal once)').fill('The violence is staged and the video opens with a warning.');
  await notice.getByRole('button', { name: 'Appeal' }).click();
  await expect(notice.getByRole('status')).toHaveText('Your appeal was sent; a moderator will look at it.');

  const appeals = await data<{ groups: { targetId: string; reasons: Record<string, number>; reports: { _id: string }[] }[] }>(
    await adminApi.get('/api/v1/admin/reports?state=open'),
  );
  const appeal = appeals.groups.find((g) => g.targetId === video._id)!;
  expect(appeal.reasons).toEqual({ appeal: 1 });
  await data(
    await adminApi.patch(`/api/v1/admin/reports/${appeal.reports[0]!._id}`, { headers: FROM_SITE, data: { action: 'restore', note: 'Appeal granted' } }),
  );

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reported journey video' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Takedown' })).toHaveCount(0);
  expect((await reporterApi.get(`/api/v1/videos/${video._id}`)).status()).toBe(200);
  const log = await data<{ entries: { action: string }[] }>(await adminApi.get('/api/v1/admin/audit-log?pageSize=10'));
  expect(log.entries.map((e) => e.action).slice(0, 3)).toEqual(['video.restore', 'video.appeal', 'video.hide']);
});

test('the upload page shows the quota an admin set and what is left of it', async ({ page, playwright, baseURL }) => {
  const adminApi = await playwright.request.newContext({ baseURL });
  const adminUser = { ...newUser('adm'), email: 'e2e-admin@example.com' };
  await signUpViaApi(adminApi, adminUser).catch(async () => {
    await data(await adminApi.post('/api/v1/users/login', { headers: FROM_SITE, data: { email: adminUser.email, password: adminUser.password } }));
  });
  const owner = await signUpViaApi(page.request);
  await data(await adminApi.patch(`/api/v1/admin/users/${owner._id}`, { headers: FROM_SITE, data: { quotaBytes: 50_000_000, dailyQuotaBytes: -1 } }));
  await page.goto(`/${owner.username}/add-video`);
  await expect(page.getByTestId('upload-quota')).toHaveText(/^50 MB of your 50 MB storage left · largest file /);
});
