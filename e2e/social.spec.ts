import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE, loginViaUi, signUpViaApi, uploadViaApi, waitReady } from './helpers';

async function data<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = await res.json();
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data as T;
}

test("a followed channel's new upload arrives live in the bell and the Subscriptions tab; a reply notifies the comment's author", async ({
  page,
  playwright,
  baseURL,
}) => {
  const channelApi = await playwright.request.newContext({ baseURL });
  const channel = await signUpViaApi(channelApi);
  const fan = await signUpViaApi(await playwright.request.newContext({ baseURL }));

  await loginViaUi(page, fan);
  await page.goto(`/channel/${channel.username}`);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('button', { name: 'Subscribed' })).toBeVisible();
  // The sidebar lists the channel now followed.
  await expect(page.getByTestId('followed-channels').getByRole('link', { name: channel.fullName })).toBeVisible();
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notifications');

  // The channel uploads while the fan's page stays open: the bell counts it without a reload.
  const video = await uploadViaApi(channelApi, { title: 'Fresh from a followed channel' });
  await waitReady(channelApi, video._id);
  await expect(page.getByTestId('unread-count')).toHaveText('1');
  await bell.click();
  const panel = page.getByRole('region', { name: 'Notifications' });
  await expect(panel.getByTestId('notification').first()).toContainText(`@${channel.username} uploaded: Fresh from a followed channel`);
  await panel.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByTestId('unread-count')).toHaveCount(0);
  await page.keyboard.press('Escape');

  await page.goto('/');
  await page.getByRole('link', { name: 'Subscriptions' }).first().click();
  await expect(page).toHaveURL(/\?tab=subscriptions/);
  await expect(page.getByRole('link', { name: /Fresh from a followed channel/ }).first()).toBeVisible();

  // The fan comments; the channel replies; the fan hears of it live and finds it under "Show 1 reply".
  await page.goto(`/video/${video._id}`);
  await page.getByLabel('Add a comment').fill('Loved this one');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  const mine = page.getByTestId('comment').filter({ hasText: 'Loved this one' });
  await expect(mine).toBeVisible();
  const comments = await data<{ comments: { _id: string; content: string }[] }>(await channelApi.get(`/api/v1/comments/${video._id}`));
  const parentId = comments.comments.find((c) => c.content === 'Loved this one')!._id;
  await data(await channelApi.post(`/api/v1/comments/${video._id}`, { headers: FROM_SITE, data: { content: 'Thanks for watching!', parentId } }));
  await expect(page.getByTestId('unread-count')).toHaveText('1');
  await bell.click();
  await expect(panel.getByTestId('notification').first()).toContainText(`@${channel.username} replied to your comment: “Thanks for watching!”`);
  await page.keyboard.press('Escape');
  await page.reload();
  // The heading counts replies too.
  await expect(page.getByRole('heading', { name: '2 Comments' })).toBeVisible();
  await mine.getByRole('button', { name: 'Show 1 reply' }).click();
  await expect(mine.getByTestId('reply')).toContainText('Thanks for watching!');
});
