import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Playwright } from '@playwright/test';
import { expect } from './fixtures';
import { FIXTURES, newUser, type TestUser } from './helpers';

// The two sites of the federation journeys (playwright.config.ts starts them): A, where members
// follow a channel of B, and B, where that channel uploads.
export const SITE_A = process.env.E2E_FEDERATION_A_URL ?? 'http://127.0.0.2:7134';
export const SITE_B = process.env.E2E_FEDERATION_B_URL ?? 'http://127.0.0.3:7135';
/** How each site is written in handles: its host with the port. */
export const HOST_A = new URL(SITE_A).host;
export const HOST_B = new URL(SITE_B).host;

type Envelope<T> = { data: T; message: string };

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = (await res.json()) as Envelope<T>;
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data;
}

/** A member of `site`, signed up and signed in on `request` (whose cookies then carry the session). */
export async function memberOf(
  request: APIRequestContext,
  site: string,
  { prefix = 'fed', fullName, avatar }: { prefix?: string; fullName?: string; avatar?: string } = {},
): Promise<TestUser> {
  const user = { ...newUser(prefix), ...(fullName ? { fullName } : {}) };
  const origin = { origin: site };
  const created = await ok<{ _id: string }>(
    await request.post(`${site}/api/v1/users/register`, {
      headers: origin,
      multipart: {
        username: user.username,
        email: user.email,
        password: user.password,
        fullName: user.fullName,
        ...(avatar ? { avatar: { name: 'a.png', mimeType: 'image/png', buffer: fs.readFileSync(avatar) } } : {}),
      },
    }),
  );
  user._id = created._id;
  await ok(await request.post(`${site}/api/v1/users/login`, { headers: origin, data: { email: user.email, password: user.password } }));
  return user;
}

/** Uploads a clip (the fixtures' 5 s one unless named) to `site` and waits until it plays there. */
export async function publishOn(
  request: APIRequestContext,
  site: string,
  { title, file = FIXTURES.video, thumb = FIXTURES.thumbnail }: { title: string; file?: string; thumb?: string },
): Promise<string> {
  const { _id } = await ok<{ _id: string }>(
    await request.post(`${site}/api/v1/videos/`, {
      headers: { origin: site },
      multipart: {
        title,
        description: `About ${title}`,
        videoFile: { name: path.basename(file), mimeType: 'video/mp4', buffer: fs.readFileSync(file) },
        thumbnail: { name: path.basename(thumb), mimeType: thumb.endsWith('.png') ? 'image/png' : 'image/jpeg', buffer: fs.readFileSync(thumb) },
      },
      timeout: 60_000,
    }),
  );
  await expect
    .poll(async () => (await ok<{ status: string }>(await request.get(`${site}/api/v1/videos/${_id}`))).status, {
      timeout: 60_000,
      intervals: [300, 500, 1000],
    })
    .toBe('ready');
  return _id;
}

/** The address other servers know a channel of `site` by: its ActivityPub actor. */
export async function actorAddress(request: APIRequestContext, site: string, username: string): Promise<string> {
  const channel = await ok<{ _id: string }>(await request.get(`${site}/api/v1/users/channel/${encodeURIComponent(username)}`));
  return `${site}/ap/channels/${channel._id}`;
}

/** A request context of its own (cookies apart from any page's). */
export const apiContext = (playwright: Playwright) => playwright.request.newContext();
