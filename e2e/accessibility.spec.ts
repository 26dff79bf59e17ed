import type { Browser, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { FROM_SITE, signInAdmin, signUpViaApi, uploadViaApi, waitReady, type TestUser } from './helpers';
import { LOOKS, lookContext, type Look } from './screenshot-kit';

// axe (WCAG 2.2 AA rules) on every page of the site, signed out, signed in and as an admin, in each
// of the four looks (light and dark, phone and desktop). Any serious or critical violation fails.

interface Site {
  owner: TestUser;
  videoId: string;
  playlistId: string;
}

let site: Site | undefined;

/** One channel with a ready video and a public playlist, made once for the whole file. */
async function theSite(browser: Browser, baseURL: string): Promise<Site> {
  if (site) return site;
  const context = await browser.newContext({ baseURL });
  const owner = await signUpViaApi(context.request);
  const { _id: videoId } = await uploadViaApi(context.request, { title: 'An accessible reel' });
  await waitReady(context.request, videoId);
  const made = await context.request.post('/api/v1/playlist/', { headers: FROM_SITE, data: { name: 'Accessible picks', description: 'For everyone' } });
  const playlistId = ((await made.json()) as { data: { _id: string } }).data._id;
  expect((await context.request.patch(`/api/v1/playlist/add/${videoId}/${playlistId}`, { headers: FROM_SITE })).ok()).toBe(true);
  await context.close();
  site = { owner, videoId, playlistId };
  return site;
}

/** Opens each route in turn, waits for it to settle, and collects what axe finds there. */
async function sweep(page: Page, look: Look, who: string, routes: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const route of routes) {
    await page.goto(route);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('main')).toBeVisible();
    found.push(...(await seriousViolations(page, `${look.name} ${who} ${route}`)));
  }
  return found;
}

// One journey per look and visitor, so that each has a budget of its own and the two workers share them.
test.describe.configure({ mode: 'parallel' });

/** The pages a visitor sees, signed out or in, given the site's owner, video and playlist. */
function sharedRoutes({ owner, videoId, playlistId }: Site): string[] {
  return [
    '/',
    '/?tab=trending',
    '/?tab=live',
    '/?query=accessible',
    `/video/${videoId}`,
    `/channel/${owner.username}`,
    `/channel/${owner.username}/videos`,
    `/channel/${owner.username}/playlists`,
    `/playlist/${playlistId}`,
  ];
}

const VISITORS: { who: string; routes: (site: Site, page: Page) => Promise<string[]> }[] = [
  {
    who: 'signed out',
    routes: async (site) => [...sharedRoutes(site), '/login', '/signup', '/forgot-password', '/reset-password?token=nothing', '/verify-email?token=nothing'],
  },
  {
    who: 'signed in',
    routes: async (site, page) => {
      await signUpViaApi(page.request);
      const me = ((await (await page.request.get('/api/v1/users/user/current')).json()) as { data: { username: string } }).data.username;
      const own = ['add-video', 'edit-profile', 'change-password', 'devices', 'playlists', 'liked-videos', 'watch-history', 'studio', 'studio/live'];
      return [...sharedRoutes(site), '/?tab=subscriptions', `/${me}`, ...own.map((p) => `/${me}/${p}`)];
    },
  },
  {
    who: 'admin',
    routes: async (_site, page) => {
      await signInAdmin(page);
      return ['overview', 'reports', 'users', 'videos', 'jobs', 'backups', 'federation', 'settings', 'audit-log'].map((s) => `/admin/${s}`);
    },
  },
];

for (const look of LOOKS) {
  for (const { who, routes } of VISITORS) {
    test(`axe finds nothing serious on any page, ${look.name}, ${who}`, async ({ browser, baseURL }) => {
      test.setTimeout(300_000);
      const site = await theSite(browser, baseURL!);
      const context = await lookContext(browser, baseURL!, look, { reducedMotion: 'reduce' });
      try {
        const page = await context.newPage();
        const found = await sweep(page, look, who, await routes(site, page));
        console.log(found.join('\n'));
        expect(found).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
}
