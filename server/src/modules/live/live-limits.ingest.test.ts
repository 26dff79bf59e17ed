import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Push, push, until } from '../../../test/support/rtmp-push.js';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { videoPrefix } from '../../storage/storage.js';

const API = '/api/v1';

describe('who may go live, and the limits on lives', () => {
  let t: TestApp;
  let port: number;
  let admin: SignedIn;
  const pushes: Push[] = [];

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(port), LIVE_RECONNECT_SECONDS: '1' } });
    admin = await signUpAs(t, 'admin');
  });
  afterEach(async () => {
    for (const p of pushes.splice(0)) p.child.kill('SIGKILL');
    // Every live of a test is over before the next starts, so that none counts against it.
    const onAir = await t.ctx.db.selectFrom('lives').select('video_id').where('status', '=', 'live').execute();
    for (const { video_id } of onAir) await t.call({ method: 'POST', url: `${API}/live/${video_id}/end`, as: admin });
    await settings({ liveAllowed: 'everyone', maxLivesOnAir: 0, maxLivesOnAirPerUser: 1, maxLiveMinutes: 720 });
  });
  afterAll(() => t.close());

  const settings = async (patch: Record<string, unknown>) => {
    const res = await t.call({ method: 'PATCH', url: `${API}/admin/settings`, payload: patch, as: admin });
    expect(res.statusCode, res.body).toBe(200);
  };
  const create = (as: SignedIn) => t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Limits', description: 'x' }, as });
  const makeLive = async (as: SignedIn) => {
    const res = await create(as);
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.data.video._id as string, key: res.data.streamKey as string };
  };
  const start = (key: string, seconds = 20) => {
    const p = push(port, key, seconds, { small: true });
    pushes.push(p);
    return p;
  };
  const status = async (id: string) => (await t.ctx.db.selectFrom('lives').select('status').where('video_id', '=', id).executeTakeFirstOrThrow()).status;
  const onAir = (id: string) =>
    until(
      `${id} on air`,
      () => status(id),
      (s) => s === 'live',
    );
  /** Refused at connect: the encoder is cut off, and nothing about the live changed or was stored. */
  const refused = async (id: string, key: string) => {
    const before = await t.ctx.db.selectFrom('lives').selectAll().where('video_id', '=', id).executeTakeFirstOrThrow();
    const p = start(key, 5);
    expect(await Promise.race([p.exited.then((code) => code !== 0), new Promise((r) => setTimeout(() => r('still on'), 4000))])).toBe(true);
    expect(await t.ctx.db.selectFrom('lives').selectAll().where('video_id', '=', id).executeTakeFirstOrThrow()).toEqual(before);
    expect((await t.ctx.storage.list(videoPrefix(id))).filter((k) => !/thumbnail-/.test(k))).toEqual([]);
  };
  const allow = (user: SignedIn, liveAllowed: boolean) =>
    t.call({ method: 'PATCH', url: `${API}/admin/users/${user.id}`, payload: { liveAllowed }, as: admin });

  it('nobody may go live: making a live is refused, and a live made before is refused at connect', async () => {
    const owner = await t.signUp();
    const { id, key } = await makeLive(owner);
    await settings({ liveAllowed: 'nobody' });
    const res = await create(owner);
    expect(res.statusCode).toBe(403);
    expect(res.message).toBe('Going live is not allowed on this site');
    // Admins are no exception.
    expect((await create(admin)).statusCode).toBe(403);
    await refused(id, key);
  });

  it('approved accounts only: refused until an admin allows the account, at both points; admins may', async () => {
    const owner = await t.signUp();
    const { id, key } = await makeLive(owner);
    await settings({ liveAllowed: 'approved' });
    const res = await create(owner);
    expect(res.statusCode).toBe(403);
    expect(res.message).toBe('Going live is not allowed for your account on this site; ask an administrator');
    await refused(id, key);
    expect((await create(admin)).statusCode).toBe(201);

    const allowed = await allow(owner, true);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.data.liveAllowed).toBe(true);
    expect((await create(owner)).statusCode).toBe(201);
    start(key);
    await onAir(id);

    // Taken back: the account cannot make another live.
    expect((await allow(owner, false)).data.liveAllowed).toBe(false);
    expect((await create(owner)).statusCode).toBe(403);
  });

  it('one live on air per account by default: a second is refused at connect (and from the browser); another account goes on', async () => {
    const owner = await t.signUp();
    const first = await makeLive(owner);
    // Making a live is not putting it on air: a second one can be made (for later) while one is on air.
    const second = await makeLive(owner);
    start(first.key);
    await onAir(first.id);
    await refused(second.id, second.key);
    const browser = await t.call({ method: 'GET', url: `${API}/live/${second.id}/publish?type=video%2Fwebm`, as: owner });
    expect(browser.statusCode).toBe(409);
    expect(browser.message).toBe('You already have 1 live on air, the most this site allows at once; end one first');

    const other = await t.signUp();
    const theirs = await makeLive(other);
    start(theirs.key);
    await onAir(theirs.id);

    // With a limit of two, the second goes on air too.
    await settings({ maxLivesOnAirPerUser: 2 });
    start(second.key);
    await onAir(second.id);
  });

  it('the most lives on air on the site: one more is refused at connect until one ends', async () => {
    await settings({ maxLivesOnAir: 1, maxLivesOnAirPerUser: 0 });
    const [a, b] = [await t.signUp(), await t.signUp()];
    const first = await makeLive(a);
    const second = await makeLive(b);
    start(first.key);
    await onAir(first.id);
    await refused(second.id, second.key);
    const browser = await t.call({ method: 'GET', url: `${API}/live/${second.id}/publish?type=video%2Fwebm`, as: b });
    expect(browser.message).toBe('This site already has 1 live on air, the most it allows at once; try again later');

    expect((await t.call({ method: 'POST', url: `${API}/live/${first.id}/end`, as: a })).statusCode).toBe(200);
    start(second.key);
    await onAir(second.id);
  });

  it('a live that reaches the longest a live may last is ended as its owner would end it', async () => {
    await settings({ maxLiveMinutes: 30 });
    const owner = await t.signUp();
    const { id, key } = await makeLive(owner);
    const encoder = start(key, 40);
    // A few seconds on air, so that the recording has something in it.
    await until(
      'stored segments',
      () => t.ctx.storage.list(`${videoPrefix(id)}broadcast/r0/`),
      (keys) => keys.filter((k) => k.endsWith('.m4s')).length >= 5,
      20_000,
    );
    // As if it had been on air for half an hour.
    await t.ctx.db
      .updateTable('lives')
      .set({ started_at: Date.now() - 30 * 60_000 - 1000 })
      .where('video_id', '=', id)
      .execute();
    await until(
      'ended',
      () => status(id),
      (s) => s === 'ended',
      15_000,
    );
    expect(await Promise.race([encoder.exited.then(() => 'cut'), new Promise((r) => setTimeout(() => r('still on'), 5000))])).toBe('cut');
    // The recording became the replay, as when the owner ends it.
    const replay = await until(
      'the replay handed to the pipeline',
      () => t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner }),
      (r) => r.data.videoFile.url !== '',
    );
    expect(replay.data.live.status).toBe('ended');
    expect(['processing', 'ready']).toContain(replay.data.status);
    expect(replay.data.videoFile.url).toMatch(/\.mp4$/);
  }, 60_000);
});
