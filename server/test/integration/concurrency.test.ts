import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo, videoRow } from '../support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * One user firing the same request many times at once (a double-clicking hand, a retrying script)
 * must leave counters equal to the rows they count, and no duplicate row. Runs on SQLite and, with
 * TEST_DB=postgres, on PostgreSQL, where the requests really do overlap in separate connections.
 */
const N = 24;
const API = '/api/v1';

let t: TestApp;
let owner: SignedIn;
let fan: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  [owner, fan] = [await t.signUp(), await t.signUp()];
});
afterAll(async () => {
  await t?.close();
});

const all = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const count = async (table: 'likes' | 'subscriptions' | 'playlist_videos' | 'comments', where: Record<string, string>) => {
  let q = t.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  for (const [k, v] of Object.entries(where)) q = q.where(k as never, '=', v as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
};

describe(`${N} identical requests at once`, () => {
  // Racing toggles may end liked or not (a toggle that finds the others' work done changes nothing),
  // but never with two likes or a counter that disagrees with the rows.
  it('like toggles: at most one like row, and likes_count equal to the rows', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    for (const n of [N, N + 1]) {
      const answers = await all(n, () => t.call({ method: 'POST', url: `${API}/likes/toggle/video/${video.id}`, as: fan }));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(n).fill(200));
      const rows = await count('likes', { user_id: fan.id, target_id: video.id });
      expect(rows).toBeLessThanOrEqual(1);
      expect((await videoRow(t.ctx, video.id)).likes_count).toBe(rows);
      const liked = await t.call({ method: 'GET', url: `${API}/likes/${video.id}?contentType=video`, as: fan });
      expect(liked.data).toBe(rows === 1);
    }
    // Once the race is over, one toggle flips the state exactly.
    const before = await count('likes', { user_id: fan.id, target_id: video.id });
    const one = await t.call({ method: 'POST', url: `${API}/likes/toggle/video/${video.id}`, as: fan });
    expect(one.data).toEqual({ liked: before === 0, likesCount: 1 - before });
  });

  it('subscription toggles: at most one row, and the channel count equals the rows', async () => {
    const channel = await t.signUp();
    const answers = await all(N + 1, () => t.call({ method: 'POST', url: `${API}/subscriptions/channel/${channel.id}`, as: fan }));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N + 1).fill(200));
    const rows = await count('subscriptions', { subscriber_id: fan.id, channel_id: channel.id });
    expect(rows).toBeLessThanOrEqual(1);
    const counted = await t.call({ method: 'GET', url: `${API}/subscriptions/user/subscriber-count`, as: channel });
    expect(counted.data.count).toBe(rows);
    const page = await t.call({ method: 'GET', url: `${API}/users/channel/${channel.username}`, as: fan });
    expect(page.data.subscribersCount).toBe(rows);
    expect(page.data.isSubscribed).toBe(rows === 1);
  });

  it('view counts: one viewer counts once however many requests race; distinct viewers each count', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const same = await all(N, () => t.call({ method: 'PATCH', url: `${API}/videos/increment-views/${video.id}`, as: fan }));
    expect(same.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    expect(same.filter((a) => a.message === 'View counted')).toHaveLength(1);
    expect((await videoRow(t.ctx, video.id)).views).toBe(1);
    const distinct = await all(N, (i) =>
      t.call({
        method: 'PATCH',
        url: `${API}/videos/increment-views/${video.id}`,
        headers: { 'user-agent': `viewer-${i}` },
        remoteAddress: `198.51.100.${i + 1}`,
      }),
    );
    expect(distinct.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    expect((await videoRow(t.ctx, video.id)).views).toBe(1 + N);
  });

  it('playlist edits: adding one video many times adds it once; removing it many times removes it once', async () => {
    const created = await t.call({ method: 'POST', url: `${API}/playlist/`, payload: { name: 'Race', description: 'x' }, as: fan });
    const playlistId = created.data._id as string;
    const videos = [await seedVideo(t.ctx, owner.id), await seedVideo(t.ctx, owner.id)];
    const added = await all(N, (i) => t.call({ method: 'PATCH', url: `${API}/playlist/add/${videos[i % 2]!.id}/${playlistId}`, as: fan }));
    expect(added.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    expect(await count('playlist_videos', { playlist_id: playlistId })).toBe(2);
    const positions = await t.ctx.db.selectFrom('playlist_videos').select('position').where('playlist_id', '=', playlistId).execute();
    expect(new Set(positions.map((p) => p.position)).size).toBe(2);
    const list = await t.ctx.db.selectFrom('playlists').select('videos_count').where('id', '=', playlistId).executeTakeFirstOrThrow();
    expect(Number(list.videos_count)).toBe(2);

    const removed = await all(N, () => t.call({ method: 'PATCH', url: `${API}/playlist/remove/${videos[0]!.id}/${playlistId}`, as: fan }));
    expect(removed.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    expect(await count('playlist_videos', { playlist_id: playlistId })).toBe(1);
    const after = await t.ctx.db.selectFrom('playlists').select('videos_count').where('id', '=', playlistId).executeTakeFirstOrThrow();
    expect(Number(after.videos_count)).toBe(1);
    const missing = await t.call({ method: 'PATCH', url: `${API}/playlist/remove/${MISSING_ID}/${playlistId}`, as: fan });
    expect(missing.statusCode).toBe(404);
  });

  it('comments: every one of many simultaneous comments is kept and counted', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const answers = await all(N, (i) => t.call({ method: 'POST', url: `${API}/comments/${video.id}`, payload: { content: `same hand ${i}` }, as: fan }));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(201));
    expect(await count('comments', { video_id: video.id })).toBe(N);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(N);
  });
});
