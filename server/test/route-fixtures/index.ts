import { randomBytes } from 'node:crypto';
import { routeTable } from '../../src/http/route-table.js';
import { newId } from '../../src/lib/ids.js';
import { seedVideo } from '../support/seed.js';
import type { SignedIn, TestApp } from '../support/test-app.js';
import type { RouteFixture, ValidCall, World } from './types.js';
import { socialFixtures } from './social.js';
import { usersFixtures } from './users.js';
import { videosFixtures } from './videos.js';
import { adminFixtures } from './admin.js';
import { uploadsFixtures } from './uploads.js';
import { notificationsFixtures } from './notifications.js';
import { previewsFixtures } from './previews.js';
import { captionsFixtures } from './captions.js';
import { twoFactorFixtures } from './two-factor.js';
import { passkeysFixtures } from './passkeys.js';
import { accountEmailFixtures } from './account-email.js';
import { singleSignOnFixtures } from './single-sign-on.js';
import { liveFixtures } from './live.js';
import { liveChatFixtures } from './live-chat.js';
import { signUpAs } from '../support/staff.js';

export type { RouteFixture, ValidCall, World };

/** Every route's fixture, keyed "METHOD url" exactly as the app registers the route. */
export const routeFixtures: Record<string, RouteFixture> = {
  ...usersFixtures,
  ...videosFixtures,
  ...socialFixtures,
  ...adminFixtures,
  ...uploadsFixtures,
  ...notificationsFixtures,
  ...previewsFixtures,
  ...captionsFixtures,
  ...twoFactorFixtures,
  ...passkeysFixtures,
  ...accountEmailFixtures,
  ...singleSignOnFixtures,
  ...liveFixtures,
  ...liveChatFixtures,
};

/**
 * Routes that take no input of their own: the API documentation, the health check, and everything
 * outside the API, media and feeds (the web client's files, its page fallback, static images). They
 * still get the URL- and header-level malformed requests.
 */
export function needsFixture(method: string, url: string): boolean {
  if (url === '/api/v1/healthcheck' || url.startsWith('/api/docs')) return false;
  return url.startsWith('/api/') || url.startsWith('/media/') || url.startsWith('/feeds/');
}

export interface AppRoute {
  key: string;
  method: string;
  url: string;
  fixture: RouteFixture | null;
  /** Keys of the query-string schema, if the route has one. */
  queryKeys: string[];
  /** Keys of the JSON body schema, if the route has one. */
  bodyKeys: string[];
  hasJsonBody: boolean;
}

/** The app's registered routes with their fixtures; routes that should have one and do not are listed apart. */
export function appRoutes(app: TestApp['app']): { routes: AppRoute[]; missing: string[] } {
  const routes: AppRoute[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const r of routeTable(app)) {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const fixture = routeFixtures[key] ?? null;
    if (!fixture && needsFixture(r.method, r.url)) missing.push(key);
    const schema = (r.schema ?? {}) as { querystring?: unknown; body?: unknown };
    routes.push({
      key,
      method: r.method,
      url: r.url,
      fixture,
      queryKeys: keysOf(schema.querystring),
      bodyKeys: keysOf(schema.body),
      hasJsonBody: !!schema.body,
    });
  }
  return { routes, missing };
}

/** The keys of a zod object schema, looking through wrappers (optional, preprocess, refine...). */
function keysOf(schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== 'object' || depth > 6) return [];
  const s = schema as { shape?: Record<string, unknown>; def?: { innerType?: unknown; out?: unknown; in?: unknown; schema?: unknown } };
  if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
  const d = s.def ?? {};
  for (const inner of [d.innerType, d.out, d.in, d.schema]) {
    const keys = keysOf(inner, depth + 1);
    if (keys.length) return keys;
  }
  return [];
}

/** Puts path parameters into a Fastify route url (values are percent-encoded unless raw). */
export function fillUrl(url: string, params: Record<string, string> = {}, raw = false): string {
  const enc = (v: string) => (raw ? v : encodeURIComponent(v));
  return url.replace(/:(\w+)/g, (_, name: string) => enc(params[name] ?? '')).replace('*', () => (params['*'] ?? '').split('/').map(enc).join('/'));
}

export function queryString(query: Record<string, string> = {}): string {
  const q = new URLSearchParams(query).toString();
  return q ? `?${q}` : '';
}

/**
 * The shared world the fixtures build on, over one test app. With a user pool, user() hands out the
 * same few accounts in turn (signing up costs a password hash): only for suites whose calls are all
 * refused, so that no account is changed under another fixture.
 */
export function createWorld(t: TestApp, opts: { userPool?: number } = {}): World {
  const pool: Promise<SignedIn>[] = [];
  let next = 0;
  const user = () => {
    if (!opts.userPool) return t.signUp();
    const i = next++ % opts.userPool;
    pool[i] ??= t.signUp();
    return pool[i]!;
  };
  const call = t.call;
  const expectOk = (what: string, res: { statusCode: number; body: string }) => {
    if (res.statusCode >= 300) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
    return res;
  };
  return {
    t,
    call,
    user,
    staff: (role) => signUpAs(t, role),
    async video(owner: SignedIn) {
      return (await seedVideo(t.ctx, owner.id)).id;
    },
    async comment(author, videoId) {
      const res = expectOk('comment', await call({ method: 'POST', url: `/api/v1/comments/${videoId}`, payload: { content: 'Seeded comment' }, as: author }));
      return (res as unknown as { data: { _id: string } }).data._id;
    },
    async playlist(owner, videoIds = []) {
      const res = expectOk(
        'playlist',
        await call({ method: 'POST', url: '/api/v1/playlist/', payload: { name: 'Seeded list', description: 'A list' }, as: owner }),
      );
      const id = (res as unknown as { data: { _id: string } }).data._id;
      for (const v of videoIds) expectOk('playlist add', await call({ method: 'PATCH', url: `/api/v1/playlist/add/${v}/${id}`, as: owner }));
      return id;
    },
    async media() {
      const key = `videos/${newId()}/thumbnail.webp`;
      await t.ctx.storage.put(key, randomBytes(2048), 'image/webp');
      return key;
    },
    get: (url, as) => call({ method: 'GET', url, as }),
  };
}
