import type { AddressInfo } from 'node:net';
import { ChatMessage, VideoDetail } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../test/support/rtmp-push.js';
import { openSse, type SseClient } from '../../../test/support/sse.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';

/** GET /live/{videoId}/chat/stream read by a real HTTP client, as a browser's EventSource would. */
describe('the live chat stream', () => {
  let t: TestApp;
  let base: string;
  let owner: SignedIn;
  let other: SignedIn;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await t.signUp();
    other = await t.signUp();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await t.close();
  });

  const makeLive = async () => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Chat show', description: 'Talk to us' }, as: owner });
    expect(res.statusCode, res.body).toBe(201);
    return res.data.video._id as string;
  };
  const posted = async (videoId: string, as: SignedIn, content: string) => {
    const res = await t.call({ method: 'POST', url: `${API}/live/${videoId}/chat`, payload: { content }, as });
    expect(res.statusCode, res.body).toBe(201);
    return ChatMessage.parse(res.data);
  };
  const remove = (videoId: string, messageId: string, as: SignedIn) => t.call({ method: 'DELETE', url: `${API}/live/${videoId}/chat/${messageId}`, as });
  const stream = async (videoId: string, as?: SignedIn) => {
    const s = await openSse(`${base}${API}/live/${videoId}/chat/stream`, as ? { authorization: `Bearer ${as.accessToken}` } : {});
    streams.push(s);
    return s;
  };

  it('the stream: ready first, then messages, deletions, viewer counts and the live ending', async () => {
    const videoId = await makeLive();
    // On air, as the ingest marks it when an encoder is admitted: the viewer count is kept for lives on air.
    await t.ctx.db.updateTable('lives').set({ status: 'live', started_at: Date.now() }).where('video_id', '=', videoId).execute();

    const watcher = await stream(videoId);
    expect(watcher.status).toBe(200);
    expect(watcher.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await watcher.next('ready')).data).toEqual({ viewers: 1, settings: { slowModeSeconds: 0, open: true } });

    const message = await posted(videoId, other, 'Live from the stream');
    expect((await watcher.next('message')).data).toEqual(message);
    expect((await remove(videoId, message._id, owner)).statusCode).toBe(200);
    expect((await watcher.next('deleted')).data).toEqual({ _id: message._id });

    // A second viewer, signed in: both count.
    const second = await stream(videoId, other);
    expect((await second.next('ready')).data.viewers).toBe(2);
    expect((await watcher.next('viewers', 8000)).data).toEqual({ viewers: 2 });
    const column = () => t.ctx.db.selectFrom('lives').select('viewers').where('video_id', '=', videoId).executeTakeFirstOrThrow();
    await until('lives.viewers to be 2', column, (r) => r.viewers === 2);
    // The video's answer shows it once a kept one expires (seconds), as it does a counted view.
    const shown = () => t.call({ method: 'GET', url: `${API}/videos/${videoId}` }).then((r) => VideoDetail.parse(r.data).live?.viewers);
    await until('the video to show 2 viewers', shown, (n) => n === 2);

    // The channel watching its own live (the Go live page) is told the count but is not in it.
    const own = await stream(videoId, owner);
    expect((await own.next('ready')).data.viewers).toBe(2);

    second.close();
    expect((await watcher.next('viewers', 8000)).data).toEqual({ viewers: 1 });
    expect((await own.next('viewers', 8000)).data).toEqual({ viewers: 1 });
    own.close();
    await until('lives.viewers back to 1', column, (r) => r.viewers === 1);
    await until('the video to show 1 viewer', shown, (n) => n === 1);

    // A chat of another live says nothing here.
    await posted(await makeLive(), other, 'Elsewhere');
    expect((await t.call({ method: 'POST', url: `${API}/live/${videoId}/end`, as: owner })).statusCode).toBe(200);
    expect((await watcher.next('status')).data).toEqual({ status: 'ended' });
    await expect(watcher.next('message', 300)).rejects.toThrow(/no message event/);
  }, 60_000);

  it('a closing server ends its open streams', async () => {
    const site = await createTestApp();
    try {
      await site.app.listen({ port: 0, host: '127.0.0.1' });
      const host = await site.signUp();
      const made = await site.call({ method: 'POST', url: `${API}/live`, payload: { title: 'x', description: 'y' }, as: host });
      const s = await openSse(`http://127.0.0.1:${(site.app.server.address() as AddressInfo).port}${API}/live/${made.data.video._id}/chat/stream`);
      streams.push(s);
      await s.next('ready');
      await site.app.close();
      await s.ended;
    } finally {
      await site.close();
    }
  });
});
