import type { AddressInfo } from 'node:net';
import { NotificationPage } from '@reelhouse/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Push, push, until } from '../../../test/support/rtmp-push.js';
import { openSse, type SseClient } from '../../../test/support/sse.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';

/** An encoder publishing to the in-process ingest: the live's chat hears it go on air and end, its channel's subscribers are told. */
describe('a live going on air, as its chat and its subscribers see it', () => {
  let t: TestApp;
  let port: number;
  let base: string;
  let owner: SignedIn;
  let subscriber: SignedIn;
  const pushes: Push[] = [];
  const streams: SseClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(port), LIVE_RECONNECT_SECONDS: '3' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await t.signUp();
    subscriber = await t.signUp();
    expect((await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${owner.id}`, as: subscriber })).statusCode).toBe(200);
  });
  afterEach(() => {
    for (const p of pushes.splice(0)) p.child.kill('SIGKILL');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  const start = (key: string, seconds: number) => {
    const p = push(port, key, seconds);
    pushes.push(p);
    return p;
  };
  const makeLive = async (visibility = 'public') => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Going live', description: 'Soon', visibility }, as: owner });
    expect(res.statusCode).toBe(201);
    return { id: res.data.video._id as string, key: res.data.streamKey as string };
  };
  const liveNotices = async (as: SignedIn, videoId: string) => {
    const res = await t.call({ method: 'GET', url: `${API}/notifications?pageSize=50`, as });
    return NotificationPage.parse(res.data).notifications.filter((n) => n.kind === 'live_started' && n.video?._id === videoId);
  };
  const status = async (id: string) => (await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner })).data.live.status as string;

  it('the first admission tells the chat and notifies each subscriber once; a reconnect notifies no one again; the end reaches the chat', async () => {
    const { id, key } = await makeLive();
    const chat = await openSse(`${base}${API}/live/${id}/chat/stream`);
    streams.push(chat);
    await chat.next('ready');
    const notices = await openSse(`${base}${API}/notifications/stream`, { authorization: `Bearer ${subscriber.accessToken}` });
    streams.push(notices);
    await notices.next('ready');

    const first = start(key, 2);
    expect((await chat.next('status', 15_000)).data).toEqual({ status: 'live' });
    const told = await notices.next('notification', 10_000);
    expect(told.data.notification).toMatchObject({ kind: 'live_started', actor: { _id: owner.id }, video: { _id: id, title: 'Going live' }, read: false });
    const [notice] = await liveNotices(subscriber, id);
    expect(notice).toMatchObject({ kind: 'live_started', actor: { _id: owner.id, username: owner.username } });
    // The channel itself is told nothing.
    expect(await liveNotices(owner, id)).toEqual([]);

    // Back within the reconnect window: the same session, on air again, nobody told twice.
    await first.exited;
    start(key, 2);
    expect((await chat.next('status', 15_000)).data).toEqual({ status: 'live' });
    expect(await liveNotices(subscriber, id)).toHaveLength(1);

    // Away past the window: the live ends, and its chat hears so.
    expect((await chat.next('status', 20_000)).data).toEqual({ status: 'ended' });
    expect(await status(id)).toBe('ended');
    expect(await liveNotices(subscriber, id)).toHaveLength(1);
  }, 60_000);

  it('a live that is not public notifies no one', async () => {
    for (const visibility of ['unlisted', 'private']) {
      const { id, key } = await makeLive(visibility);
      start(key, 3);
      await until(
        'on air',
        () => status(id),
        (s) => s === 'live',
        15_000,
      );
      // The notification would be made right after the admission; give it time to show if it were.
      await new Promise((r) => setTimeout(r, 500));
      expect(await liveNotices(subscriber, id)).toEqual([]);
    }
  }, 60_000);
});
