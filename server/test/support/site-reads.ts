import { expect } from 'vitest';
import { ApiClient } from './processes.js';

/**
 * The reads of a site compared before and after a move to another database, and the helpers that
 * make the activity they read: accounts that sign in again with the same password, calls that must
 * succeed, caption uploads.
 */

/** What the site was given before the move, to read it back by. */
export interface SiteFacts {
  people: { bob: { id: string; email: string }; alice: { id: string; email: string } };
  videoIds: string[];
  /** bob's comment, which alice answered. */
  comment: string;
  /** bench/catalogue.mjs's landmarks: its deep-comments video, biggest channel and words to search. */
  landmarks: Record<string, string>;
}

/** The settings of the site on either database: the same data directory and port, so the answers can be compared as they are. */
export const siteEnv = (dataDir: string, port: number, extra: Record<string, string> = {}) => ({
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  DEMO_ACCOUNT: 'false',
  LOG_LEVEL: 'warn',
  // Fresh answers on both sides: counted views and the like are not changes a kept answer is told of.
  ANSWER_CACHE: 'false',
  // Deep pages of the 1,000 catalogue videos seek to kept boundaries, which PostgreSQL makes anew.
  PAGE_BUCKET_SPACING: '100',
  SQLITE_READ_WORKERS: '0',
  RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '10000',
  RATE_LIMIT_UPLOADS_PER_HOUR: '10000',
  RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
  RATE_LIMIT_VIEWS_PER_MINUTE: '10000',
  ...extra,
});

/** Registers an account with known credentials, so it can sign in again on the other database. */
export async function account(base: string, name: string): Promise<{ api: ApiClient; id: string; email: string }> {
  const api = new ApiClient(base);
  const email = `${name}@example.com`;
  const form = new FormData();
  for (const [k, v] of Object.entries({ username: name, email, password: 'correct-horse-1', fullName: `${name} Example` })) form.append(k, v);
  const reg = await api.call('POST', '/api/v1/users/register', form);
  expect(reg.status, JSON.stringify(reg.json)).toBe(201);
  await signIn(api, email, 'correct-horse-1');
  const me = await api.call('GET', '/api/v1/users/user/current');
  return { api, id: me.json.data._id, email };
}

export async function signIn(api: ApiClient, email: string, password: string): Promise<void> {
  const login = await api.call('POST', '/api/v1/users/login', { email, password }, { 'x-return-tokens': 'true' });
  expect(login.status, JSON.stringify(login.json)).toBe(200);
  api.accessToken = login.json.data.accessToken;
}

export async function ok(api: ApiClient, method: string, url: string, body?: object | FormData) {
  const res = await api.call(method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.json)}`).toBeLessThan(300);
  return res.json.data;
}

/** Every answer the comparison reads, by name: the same reads made on SQLite and then on PostgreSQL. */
export type Answers = Record<string, unknown>;

/** A caption track's upload: its cues are rows of their own, with integer ids on both databases. */
export function captionForm(language: string, lines: string[]): FormData {
  const vtt = `WEBVTT\n\n${lines.map((text, i) => `00:00:0${i}.000 --> 00:00:0${i + 1}.000\n${text}\n`).join('\n')}`;
  const form = new FormData();
  form.append('language', language);
  form.append('label', language);
  form.append('file', new File([vtt], `${language}.vtt`, { type: 'text/vtt' }));
  return form;
}

/** The reads compared: signed out, signed in as bob (a subscriber), alice (an uploader) and a catalogue channel. */
export async function readEverything(base: string, site: SiteFacts): Promise<Answers> {
  const { people, videoIds, comment, landmarks } = site;
  const anon = new ApiClient(base);
  const bob = new ApiClient(base);
  await signIn(bob, people.bob.email, 'correct-horse-1');
  const alice = new ApiClient(base);
  await signIn(alice, people.alice.email, 'correct-horse-1');
  const user0 = new ApiClient(base);
  await signIn(user0, 'user0@catalogue.example', 'catalogue-password');
  const reads: [string, ApiClient, string][] = [
    ['home 1', anon, '/api/v1/videos/?pageNumber=1&pageSize=12'],
    ['home 2', anon, '/api/v1/videos/?pageNumber=2&pageSize=12'],
    ['home deep', anon, '/api/v1/videos/?pageNumber=45&pageSize=12'],
    ['home deep by views', anon, '/api/v1/videos/?pageNumber=30&pageSize=12&sortBy=views'],
    ['home oldest', anon, '/api/v1/videos/?pageNumber=1&pageSize=12&sortType=asc'],
    ['channel', anon, '/api/v1/users/channel/alice'],
    ['channel videos', anon, `/api/v1/videos/?userId=${people.alice.id}`],
    ['big channel videos', anon, `/api/v1/videos/?userId=${landmarks.bigChannelId}&pageNumber=3&pageSize=10`],
    ['big channel', anon, `/api/v1/users/channel/${landmarks.bigChannel}`],
    ['comments', anon, `/api/v1/comments/${videoIds[0]}`],
    ['replies', anon, `/api/v1/comments/${comment}/replies`],
    ['deep comments', anon, `/api/v1/comments/${landmarks.deepCommentsVideo}?pageNumber=20&pageSize=20`],
    ['search upload', anon, '/api/v1/videos/?query=lighthouse'],
    ['search common', anon, `/api/v1/videos/?query=${encodeURIComponent(landmarks.commonWord!)}`],
    ['search rare', anon, `/api/v1/videos/?query=${encodeURIComponent(landmarks.rareWord!)}`],
    ['search phrase', anon, `/api/v1/videos/?query=${encodeURIComponent(landmarks.phrase!)}&pageNumber=2&pageSize=5`],
    ['search prefix', anon, '/api/v1/videos/?query=lightho'],
    ['search captions', anon, '/api/v1/videos/?query=foghorn'],
    ['up next', anon, `/api/v1/videos/${videoIds[0]}/related`],
    ['bob: subscriptions feed', bob, '/api/v1/feed/subscriptions'],
    ['bob: notifications', bob, '/api/v1/notifications'],
    ['bob: watch history', bob, '/api/v1/users/watch-history/'],
    ['bob: liked videos', bob, '/api/v1/likes/videos'],
    ['bob: playlists', bob, `/api/v1/playlist/user/${people.bob.id}`],
    ['bob: current user', bob, '/api/v1/users/user/current'],
    ['alice: notifications', alice, '/api/v1/notifications'],
    ['alice: studio', alice, '/api/v1/studio/videos'],
    ['user0: subscriptions feed', user0, '/api/v1/feed/subscriptions'],
    ['user0: history', user0, '/api/v1/users/watch-history/'],
  ];
  for (const id of videoIds) {
    reads.push([`video ${id}`, anon, `/api/v1/videos/${id}`], [`bob: video ${id}`, bob, `/api/v1/videos/${id}`]);
  }
  const answers: Answers = {};
  for (const [name, api, url] of reads) {
    const res = await api.call('GET', url);
    expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(200);
    answers[name] = res.json.data;
  }
  return answers;
}

/** The bytes of every media file the uploads' pages point at. */
export async function readMedia(base: string, answers: Answers, videoIds: string[]): Promise<Record<string, Buffer>> {
  const api = new ApiClient(base);
  const out: Record<string, Buffer> = {};
  for (const id of videoIds) {
    const v = answers[`video ${id}`] as Record<string, { url: string } | null>;
    for (const field of ['videoFile', 'thumbnail', 'hls', 'storyboard']) {
      const url = v[field]!.url;
      const res = await api.fetchBytes(url);
      expect(res.status, url).toBe(200);
      out[url] = res.body;
    }
  }
  return out;
}
