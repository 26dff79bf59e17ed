import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { refreshVideoAccess } from '../../db/video-access.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function upload(as: SignedIn): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/v1/videos/',
    as,
    payload: await multipart({ title: 'Counted', description: 'd' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
  });
  expect(res.statusCode).toBe(201);
  return res.data._id;
}

/** The kept counters against a real count of the rows. */
async function expectCountersTrue() {
  const kept = await t.ctx.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirstOrThrow();
  const real = await t.ctx.db
    .selectFrom('videos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('visibility', '=', 'public')
    .where('status', '=', 'ready')
    .executeTakeFirstOrThrow();
  expect(Number(kept.value)).toBe(Number(real.n));
  const drift = await t.ctx.db
    .selectFrom('users')
    .select([
      'id',
      'videos_count',
      sql<number>`(select count(*) from videos v where v.owner_id = users.id and v.visibility = 'public' and v.status = 'ready')`.as('real'),
    ])
    .execute();
  for (const u of drift) expect(Number(u.videos_count), u.id).toBe(Number(u.real));
  const list = await t.call({ method: 'GET', url: '/api/v1/videos/' });
  expect(list.data.totalDocs).toBe(Number(real.n));
  return Number(real.n);
}

describe('kept video counts', () => {
  it('match the rows through uploads, publishing, deletions and account deletion', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const a1 = await upload(a);
    const a2 = await upload(a);
    await upload(b);
    expect(await expectCountersTrue()).toBe(3);

    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${a1}`, as: a });
    expect(await expectCountersTrue()).toBe(2);
    const channel = await t.call({ method: 'GET', url: `/api/v1/videos/?userId=${a.id}` });
    expect(channel.data.totalDocs).toBe(1);
    expect(channel.data.videos).toHaveLength(1);

    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${a1}`, as: a });
    await t.call({ method: 'DELETE', url: `/api/v1/videos/${a2}`, as: a });
    expect(await expectCountersTrue()).toBe(2);

    await t.call({ method: 'DELETE', url: '/api/v1/users/delete-account', as: a });
    expect(await expectCountersTrue()).toBe(1);
  });

  it('stay right when many recounts for one owner run at once', async () => {
    const c = await t.signUp();
    await upload(c);
    await upload(c);
    // Hide both behind the counters' back, then refresh concurrently: each difference is applied once.
    await t.ctx.db.updateTable('videos').set({ visibility: 'private' }).where('owner_id', '=', c.id).execute();
    await Promise.all(Array.from({ length: 8 }, () => refreshVideoAccess(t.ctx.db, { ownerId: c.id })));
    await expectCountersTrue();
  });
});
