import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPort, waitFor } from './support/federation-site.js';
import type { FederationSite } from '../src/composition/federation.js';
import { startInboxFleet, type InboxFleet, type ReceivedActivity } from './support/inbox-fleet.js';
import { seedVideo } from './support/seed.js';
import { staffCallers } from './support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from './support/test-app.js';

type Video = { type: string; id: string; name: string; url: { href: string; mediaType: string }[]; attributedTo: string };

describe("a channel's videos delivered to its followers' servers", () => {
  let t: TestApp;
  let origin: string;
  let federation: FederationSite;
  let fleet: InboxFleet;
  let owner: SignedIn;
  let channel: string;

  beforeAll(async () => {
    fleet = await startInboxFleet({ host: '127.0.0.6' });
    const port = await loopbackPort('127.0.0.5');
    origin = `http://127.0.0.5:${port}`;
    t = await createTestApp({ env: { PUBLIC_URL: origin, FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true' }, serveSourceAsIs: false });
    await t.app.listen({ host: '127.0.0.5', port });
    federation = t.services.federation!;
    owner = await t.signUp({ fullName: 'Delivering Channel' });
    channel = `${origin}/ap/channels/${owner.id}`;
    // Two followers on server 1, which has a shared inbox; one on server 2, which has none.
    const now = Date.now();
    const followers = [
      { ...fleet.follower(1, 1), shared_inbox: fleet.sharedInbox(1) },
      { ...fleet.follower(1, 2), shared_inbox: fleet.sharedInbox(1) },
      { ...fleet.follower(2, 1), shared_inbox: null },
    ];
    await t.ctx.db
      .insertInto('federation_followers')
      .values(
        followers.map((f, i) => ({
          channel_id: owner.id,
          actor_id: f.actorId,
          inbox: f.inbox,
          shared_inbox: f.shared_inbox,
          follow_id: null,
          created_at: now + i,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await t?.close();
    await fleet?.close();
  });

  /** What the fleet's servers took about one video, in order, once `count` have arrived. */
  const about = (videoId: string, count: number) =>
    waitFor(`${count} deliveries about ${videoId}`, () => {
      const got = fleet.received.filter((r) => JSON.stringify(r.activity).includes(`/ap/videos/${videoId}`));
      return got.length >= count ? got : null;
    });
  /** Every delivery job and message has run: nothing more is on its way. */
  const settled = () =>
    waitFor('the delivery jobs to finish', async () => {
      const open = await t.ctx.db
        .selectFrom('jobs')
        .select('id')
        .where('name', 'in', ['federation.video', 'federation.message'])
        .where('status', 'in', ['queued', 'running'])
        .execute();
      return open.length === 0;
    });
  const all = (videoId: string) => fleet.received.filter((r) => JSON.stringify(r.activity).includes(`/ap/videos/${videoId}`));
  const byServer = (got: ReceivedActivity[]) => got.map((r) => [r.server, r.activity.type, new URL(r.inbox).pathname]).sort();

  it('sends a Create(Video) once per server when a private video is made public, signed by the channel', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private', title: 'Fresh from the channel', description: 'Line one\n\nLine two' });
    const toggled = await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    expect(toggled.statusCode).toBe(200);

    const got = await about(video.id, 2);
    // Server 1's two followers share one delivery to its shared inbox; server 2 gets one at the follower's own inbox.
    expect(byServer(got)).toEqual([
      [1, 'Create', '/s1/inbox'],
      [2, 'Create', '/s2/users/1/inbox'],
    ]);
    const create = got[0]!.activity as { actor: string; object: Video; to: string | string[]; cc: string | string[] };
    expect(create.actor).toBe(channel);
    expect(create.object).toMatchObject({ type: 'Video', id: `${origin}/ap/videos/${video.id}`, name: 'Fresh from the channel', attributedTo: channel });
    expect([create.to].flat()).toContain('as:Public');
    expect([create.cc].flat()).toContain(`${channel}/followers`);
    expect(fleet.refused).toBe(0);

    // Done once, though the toggle told of two events: the job run again sends nothing more.
    expect(await federation.videos.deliver(video.id)).toBe('nothing');
    await settled();
    expect(all(video.id)).toHaveLength(2);
  });

  it('sends an Update with the new title on an edit, and a Delete when the video is made private', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private', title: 'Before the edit' });
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    await about(video.id, 2);

    const form = new FormData();
    form.append('title', 'After the edit');
    const edited = await t.call({ method: 'PATCH', url: `/api/v1/videos/${video.id}`, payload: form, as: owner });
    expect(edited.statusCode).toBe(200);
    const updates = (await about(video.id, 4)).filter((r) => r.activity.type === 'Update');
    expect(updates).toHaveLength(2);
    expect((updates[0]!.activity.object as Video).name).toBe('After the edit');

    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    const deletes = (await about(video.id, 6)).filter((r) => r.activity.type === 'Delete');
    expect(deletes).toHaveLength(2);
    expect(deletes[0]!.activity.object).toMatchObject({ type: 'Tombstone', id: `${origin}/ap/videos/${video.id}` });
    expect(await t.ctx.db.selectFrom('federation_sent_videos').selectAll().where('video_id', '=', video.id).execute()).toEqual([]);

    // Public again: a new Create, under a new id, since receivers drop an activity id they have seen.
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    const creates = (await about(video.id, 8)).filter((r) => r.activity.type === 'Create');
    expect(creates).toHaveLength(4);
    expect(new Set(creates.map((c) => c.activity.id)).size).toBe(2);
    await settled();
    expect(all(video.id)).toHaveLength(8);
  });

  it('sends a Delete when a public video is deleted, though its row is gone', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private', title: 'Soon gone' });
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    await about(video.id, 2);
    const removed = await t.call({ method: 'DELETE', url: `/api/v1/videos/${video.id}`, as: owner });
    expect(removed.statusCode).toBe(200);
    const deletes = (await about(video.id, 4)).filter((r) => r.activity.type === 'Delete');
    expect(byServer(deletes)).toEqual([
      [1, 'Delete', '/s1/inbox'],
      [2, 'Delete', '/s2/users/1/inbox'],
    ]);
  });

  it('sends a Delete when a moderator takes the video down, and a new Create when it is restored', async () => {
    const staff = await staffCallers(t);
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private', title: 'Reported' });
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    await about(video.id, 2);
    const report = await t.call({
      method: 'POST',
      url: '/api/v1/reports',
      as: staff.user,
      payload: { targetType: 'video', targetId: video.id, reason: 'spam' },
    });
    expect(report.statusCode).toBe(201);
    const act = (reportId: string, action: string) =>
      t.call({ method: 'PATCH', url: `/api/v1/admin/reports/${reportId}`, as: staff.moderator, payload: { action, note: 'Spam' } });
    expect((await act(report.data._id, 'hide')).statusCode).toBe(200);
    const deletes = (await about(video.id, 4)).filter((r) => r.activity.type === 'Delete');
    expect(deletes).toHaveLength(2);
    // The owner appeals, and the appeal is the report a restore settles.
    const appeal = await t.call({ method: 'POST', url: `/api/v1/videos/${video.id}/appeal`, as: owner, payload: { text: 'It is not spam' } });
    expect(appeal.statusCode).toBe(201);
    expect((await act(appeal.data._id, 'restore')).statusCode).toBe(200);
    await about(video.id, 6);
    await settled();
    expect(all(video.id).map((r) => r.activity.type)).toEqual(['Create', 'Create', 'Delete', 'Delete', 'Create', 'Create']);
  });

  it('never sends an unlisted or private video, nor one still scheduled', async () => {
    const unlisted = await seedVideo(t.ctx, owner.id, { visibility: 'private', title: 'Only by link' });
    const form = new FormData();
    form.append('visibility', 'unlisted');
    expect((await t.call({ method: 'PATCH', url: `/api/v1/videos/${unlisted.id}`, payload: form, as: owner })).statusCode).toBe(200);
    const later = new FormData();
    later.append('title', 'Edited while private');
    const privateOne = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    expect((await t.call({ method: 'PATCH', url: `/api/v1/videos/${privateOne.id}`, payload: later, as: owner })).statusCode).toBe(200);

    // Both jobs ran and sent nothing.
    await settled();
    const sent = fleet.received.filter((r) => [unlisted.id, privateOne.id].some((id) => JSON.stringify(r.activity).includes(id)));
    expect(sent).toEqual([]);
    expect(await federation.videos.deliver(unlisted.id)).toBe('nothing');
  });
});
