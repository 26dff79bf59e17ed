import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
let channel: SignedIn;
let fan: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [channel, fan, other] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
});
afterAll(() => t?.close());

const toggle = (id: string, as?: SignedIn) => t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${id}`, as });
const status = (id: string, as?: SignedIn) => t.call({ method: 'GET', url: `/api/v1/subscriptions/channel/${id}`, as });
const count = (as?: SignedIn) => t.call({ method: 'GET', url: '/api/v1/subscriptions/user/subscriber-count', as });
const counter = async (id: string) =>
  (await t.ctx.db.selectFrom('users').select('subscribers_count').where('id', '=', id).executeTakeFirstOrThrow()).subscribers_count;

describe('POST /subscriptions/channel/:channelId', () => {
  it('needs sign-in', async () => {
    expect((await toggle(channel.id)).statusCode).toBe(401);
  });

  it("refuses one's own channel with the message the client shows", async () => {
    const res = await toggle(channel.id, channel);
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ statusCode: 403, data: null, message: "Can't subscribe to your own channel", success: false });
  });

  it('is 404 for a missing channel and 400 for a malformed id', async () => {
    expect((await toggle(MISSING_ID, fan)).statusCode).toBe(404);
    expect((await toggle('x', fan)).statusCode).toBe(400);
  });

  it('toggles, answering whether subscribed now, and keeps the subscriber count', async () => {
    const on = await toggle(channel.id, fan);
    expect(on.statusCode).toBe(200);
    expect(JSON.parse(on.body)).toMatchObject({ statusCode: 200, data: true, success: true });
    expect((await toggle(channel.id, other)).data).toBe(true);
    expect(await counter(channel.id)).toBe(2);
    expect((await count(channel)).data).toEqual({ count: 2 });
    expect((await toggle(channel.id, fan)).data).toBe(false);
    expect(await counter(channel.id)).toBe(1);
    expect((await count(channel)).data).toEqual({ count: 1 });
    // The subscriber's own count is untouched.
    expect((await count(other)).data).toEqual({ count: 0 });
    expect((await toggle(channel.id, other)).data).toBe(false);
    expect((await count(channel)).data).toEqual({ count: 0 });
  });

  it('never subscribes twice when toggled many times at once', async () => {
    const target = await t.signUp();
    const results = await Promise.all(Array.from({ length: 7 }, () => toggle(target.id, fan)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await t.ctx.db.selectFrom('subscriptions').select('subscriber_id').where('channel_id', '=', target.id).execute();
    expect(rows.length).toBeLessThanOrEqual(1);
    expect(await counter(target.id)).toBe(rows.length);
    expect((await count(target)).data).toEqual({ count: rows.length });
  });
});

describe('GET /subscriptions/channel/:channelId', () => {
  it('answers a boolean for the caller, false when signed out or on their own channel', async () => {
    await toggle(channel.id, fan);
    expect((await status(channel.id, fan)).data).toBe(true);
    expect((await status(channel.id, other)).data).toBe(false);
    expect((await status(channel.id, channel)).data).toBe(false);
    const anonymous = await status(channel.id);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.data).toBe(false);
    await toggle(channel.id, fan);
    expect((await status(channel.id, fan)).data).toBe(false);
  });

  it('is 404 for a missing channel and 400 for a malformed id', async () => {
    expect((await status(MISSING_ID, fan)).statusCode).toBe(404);
    expect((await status('bad!id')).statusCode).toBe(400);
  });
});

describe('GET /subscriptions/user/subscriber-count', () => {
  it('needs sign-in', async () => {
    const res = await count();
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, data: null });
  });

  it("agrees with the channel page's subscribersCount", async () => {
    const star = await t.signUp();
    const fans = await Promise.all([t.signUp(), t.signUp()]);
    for (const f of fans) await toggle(star.id, f);
    expect((await count(star)).data).toEqual({ count: 2 });
    const page = await t.call({ method: 'GET', url: `/api/v1/users/channel/${star.username}`, as: fans[0] });
    expect(page.data).toMatchObject({ subscribersCount: 2, isSubscribed: true });
  });
});
