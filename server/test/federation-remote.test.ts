import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, startSite, waitFor } from './support/federation-site.js';
import { seedVideo } from './support/seed.js';
import { signUpAs } from './support/staff.js';
import type { SignedIn } from './support/test-app.js';

const API = '/api/v1';
type Card = { _id: string; title: string; remote?: boolean; url?: string; owner: { _id: string; username: string } };

/**
 * A member of site A follows a channel of site B from A, through A's own routes: the lookup, the
 * subscribe button's call, the subscriptions feed, notifications and the video page. Both sites
 * run whole, on their own loopback addresses and databases, their jobs running.
 */
describe('following a channel of another site', () => {
  let a: Site;
  let b: Site;
  let alice: SignedIn;
  let bob: SignedIn;
  let bobActor: string;
  let remoteId: string;
  /** "Fresh from B": its id on B and on A. */
  let fresh: { onB: string; onA: string };

  beforeAll(async () => {
    [a, b] = await Promise.all([startSite('127.0.0.2'), startSite('127.0.0.3')]);
    alice = await a.t.signUp({ fullName: 'Alice on A' });
    bob = await b.t.signUp({ fullName: 'Bob on B' });
    bobActor = `${b.origin}/ap/channels/${bob.id}`;
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  /** Makes a private video of Bob's on B, with an HLS master in B's storage, and publishes it through B's route. */
  async function publishOnB(title: string): Promise<string> {
    const video = await seedVideo(b.t.ctx, bob.id, { visibility: 'private', title, description: 'From <B>\n\nSecond paragraph' });
    const master = `videos/${video.id}/hls/master.m3u8`;
    await b.t.ctx.storage.put(master, Buffer.from('#EXTM3U\n#EXT-X-VERSION:6\n'));
    await b.t.ctx.db.updateTable('videos').set({ hls_key: master }).where('id', '=', video.id).execute();
    expect((await b.t.call({ method: 'PATCH', url: `${API}/videos/publish/${video.id}`, as: bob })).statusCode).toBe(200);
    return video.id;
  }
  const onA = (title: string) => a.t.ctx.db.selectFrom('videos').select(['id', 'title', 'remote_object_id']).where('title', '=', title).executeTakeFirst();
  const feedOfAlice = async () => (await a.t.call({ method: 'GET', url: `${API}/feed/subscriptions`, as: alice })).data.videos as Card[];

  it("finds B's channel from A by its address, with the videos it had already published", async () => {
    const earlier = await publishOnB('Published before anyone followed');
    const res = await a.t.call({ method: 'GET', url: `${API}/federation/lookup?handle=${encodeURIComponent(bobActor)}`, as: alice });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Channel fetched' });
    expect(res.data).toMatchObject({
      username: `${bob.username}@${b.host}`,
      fullName: 'Bob on B',
      remote: true,
      url: `${b.origin}/channel/${bob.username}`,
      isSubscribed: false,
      videosCount: 1,
    });
    remoteId = res.data._id;

    // Its channel page and the video serve from A, the media addresses B's.
    const channel = await a.t.call({ method: 'GET', url: `${API}/users/channel/${encodeURIComponent(`${bob.username}@${b.host}`)}` });
    expect(channel.data).toMatchObject({ _id: remoteId, remote: true });
    const kept = await onA('Published before anyone followed');
    expect(kept?.remote_object_id).toBe(`${b.origin}/ap/videos/${earlier}`);
    const page = await a.t.call({ method: 'GET', url: `${API}/videos/${kept!.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.data).toMatchObject({
      remote: true,
      url: `${b.origin}/video/${earlier}`,
      description: 'From <B>\n\nSecond paragraph',
      hls: { url: `${b.origin}/media/videos/${earlier}/hls/master.m3u8` },
      owner: { _id: remoteId, username: `${bob.username}@${b.host}` },
    });
    // A's viewers' browsers read the playlist from B: B lets other sites' pages read its media.
    const playlist = await fetch(page.data.hls.url, { headers: { origin: a.origin } });
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('access-control-allow-origin')).toBe('*');
    expect(await playlist.text()).toContain('#EXTM3U');
    // And A's pages may load media from other servers.
    const csp = (await a.t.call({ method: 'GET', url: '/' })).headers['content-security-policy'] as string;
    expect(csp).toMatch(/media-src [^;]*https:/);

    // Looked up twice, it is the same channel.
    const again = await a.t.call({ method: 'GET', url: `${API}/federation/lookup?handle=${encodeURIComponent(bobActor)}`, as: alice });
    expect(again.data._id).toBe(remoteId);
  });

  it("subscribes with A's button call: B records Alice's channel as a follower and accepts", async () => {
    const res = await a.t.call({ method: 'POST', url: `${API}/subscriptions/channel/${remoteId}`, as: alice });
    expect(res.statusCode).toBe(200);
    expect(res.data).toBe(true);
    await waitFor('B to count Alice as a follower', async () =>
      b.t.ctx.db
        .selectFrom('federation_followers')
        .select('actor_id')
        .where('channel_id', '=', bob.id)
        .where('actor_id', '=', `${a.origin}/ap/channels/${alice.id}`)
        .executeTakeFirst(),
    );
    await waitFor("B's Accept to reach A", async () =>
      (await a.federation.service.following(alice.id)).find((f) => f.actor_id === bobActor && f.accepted_at !== null),
    );
    expect((await a.t.call({ method: 'GET', url: `${API}/subscriptions/channel/${remoteId}`, as: alice })).data).toBe(true);
  });

  it("brings B's new video to Alice's subscriptions feed and notifications within seconds", async () => {
    const id = await publishOnB('Fresh from B');
    const kept = await waitFor('the video to reach A', () => onA('Fresh from B'), 15_000);
    expect(kept.remote_object_id).toBe(`${b.origin}/ap/videos/${id}`);
    // Found by search under its channel's handle and full name, as the site's own videos are.
    const { owner_text } = await a.t.ctx.db.selectFrom('videos').select('owner_text').where('id', '=', kept.id).executeTakeFirstOrThrow();
    expect(owner_text).toBe(`${bob.username}@${b.host} Bob on B`);
    const feed = await waitFor("the video in Alice's feed", async () => (await feedOfAlice()).find((v) => v.title === 'Fresh from B'));
    expect(feed).toMatchObject({ _id: kept.id, remote: true, owner: { _id: remoteId } });
    const notifications = await waitFor("Alice's notification", async () => {
      const res = await a.t.call({ method: 'GET', url: `${API}/notifications`, as: alice });
      return (res.data.notifications as { kind: string; video: { _id: string } | null }[]).find((n) => n.kind === 'new_video' && n.video?._id === kept.id);
    });
    expect(notifications).toBeTruthy();
    fresh = { onB: id, onA: kept.id };
  });

  it("carries Alice's comment, its edit, reply and deletion, her like and a boost, to B, where they show with her handle", async () => {
    const aliceHandle = `${alice.username}@${a.host}`;
    const posted = await a.t.call({ method: 'POST', url: `${API}/comments/${fresh.onA}`, payload: { content: 'Hello from <A>!' }, as: alice });
    expect(posted.statusCode).toBe(201);
    const commentsOnB = async () => (await b.t.call({ method: 'GET', url: `${API}/comments/${fresh.onB}` })).data.comments as Record<string, unknown>[];
    const onB = await waitFor("Alice's comment on B", async () => (await commentsOnB()).find((c) => c.content === 'Hello from <A>!'));
    expect(onB).toMatchObject({ remote: true, url: `${a.origin}/ap/comments/${posted.data._id}`, owner: { username: aliceHandle, fullName: 'Alice on A' } });
    // Bob, the video's owner, is told as of any comment.
    await waitFor("Bob's notification", async () => {
      const res = await b.t.call({ method: 'GET', url: `${API}/notifications`, as: bob });
      return (res.data.notifications as { kind: string }[]).some((n) => n.kind === 'video_comment');
    });
    // B can read the Note it was sent at its address on A.
    const note = (await (await fetch(`${a.origin}/ap/comments/${posted.data._id}`, { headers: { accept: 'application/activity+json' } })).json()) as Record<
      string,
      unknown
    >;
    expect(note).toMatchObject({ type: 'Note', inReplyTo: `${b.origin}/ap/videos/${fresh.onB}`, attributedTo: `${a.origin}/ap/channels/${alice.id}` });

    expect((await a.t.call({ method: 'PATCH', url: `${API}/comments/${posted.data._id}`, payload: { content: 'Edited on A' }, as: alice })).statusCode).toBe(
      200,
    );
    await waitFor('the edit on B', async () => (await commentsOnB()).find((c) => c._id === onB._id && c.content === 'Edited on A'));

    // A reply joins the same thread on B.
    const reply = await a.t.call({
      method: 'POST',
      url: `${API}/comments/${fresh.onA}`,
      payload: { content: 'And a reply', parentId: posted.data._id },
      as: alice,
    });
    expect(reply.statusCode).toBe(201);
    await waitFor('the reply on B', async () => {
      const res = await b.t.call({ method: 'GET', url: `${API}/comments/${String(onB._id)}/replies` });
      return (res.data.comments as { content: string; parentId: string }[]).find((c) => c.content === 'And a reply' && c.parentId === onB._id);
    });

    expect((await a.t.call({ method: 'POST', url: `${API}/likes/toggle/video/${fresh.onA}`, as: alice })).statusCode).toBe(200);
    await waitFor('the like on B', async () => (await b.t.call({ method: 'GET', url: `${API}/videos/${fresh.onB}` })).data.likesCount === 1);
    expect((await a.t.call({ method: 'POST', url: `${API}/likes/toggle/video/${fresh.onA}`, as: alice })).statusCode).toBe(200);
    await waitFor('the unlike on B', async () => (await b.t.call({ method: 'GET', url: `${API}/videos/${fresh.onB}` })).data.likesCount === 0);

    // A boost from A (Mastodon sends these as Announce) counts as a share on B, once; its Undo uncounts it.
    const { Announce, PUBLIC_COLLECTION, Undo } = await import('@fedify/fedify');
    const ctx = a.federation.activityPub.createContext(new URL(a.origin));
    const me = ctx.getActorUri(alice.id);
    const bob_ = { id: new URL(bobActor), inboxId: new URL(`${bobActor}/inbox`) };
    const boost = new Announce({ id: new URL(`${me.href}#boost-1`), actor: me, object: new URL(`${b.origin}/ap/videos/${fresh.onB}`), to: PUBLIC_COLLECTION });
    await ctx.sendActivity({ identifier: alice.id }, bob_, boost);
    await ctx.sendActivity(
      { identifier: alice.id },
      bob_,
      new Announce({ id: new URL(`${me.href}#boost-2`), actor: me, object: boost.objectId, to: PUBLIC_COLLECTION }),
    );
    await waitFor('the share on B', async () => (await b.t.call({ method: 'GET', url: `${API}/videos/${fresh.onB}` })).data.sharesCount === 1);
    await ctx.sendActivity({ identifier: alice.id }, bob_, new Undo({ id: new URL(`${me.href}#unboost-1`), actor: me, object: boost }));
    await waitFor('the share gone on B', async () => (await b.t.call({ method: 'GET', url: `${API}/videos/${fresh.onB}` })).data.sharesCount === 0);

    expect((await a.t.call({ method: 'DELETE', url: `${API}/comments/${posted.data._id}`, as: alice })).statusCode).toBe(200);
    await waitFor('the comment gone from B', async () => (await commentsOnB()).every((c) => c._id !== onB._id));
  });

  it("follows B's edit of the title, then its deletion", async () => {
    const id = await publishOnB('Soon renamed');
    const kept = await waitFor('the video to reach A', () => onA('Soon renamed'));
    const form = new FormData();
    form.append('title', 'Renamed on B');
    expect((await b.t.call({ method: 'PATCH', url: `${API}/videos/${id}`, payload: form, as: bob })).statusCode).toBe(200);
    await waitFor('the new title on A', async () => (await a.t.call({ method: 'GET', url: `${API}/videos/${kept.id}` })).data?.title === 'Renamed on B');

    expect((await b.t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: bob })).statusCode).toBe(200);
    await waitFor('the video to be gone from A', async () => (await a.t.call({ method: 'GET', url: `${API}/videos/${kept.id}` })).statusCode === 404);
    expect((await feedOfAlice()).find((v) => v._id === kept.id)).toBeUndefined();
  });

  it('unsubscribing sends an Undo: B forgets the follower and delivers nothing more', async () => {
    const res = await a.t.call({ method: 'POST', url: `${API}/subscriptions/channel/${remoteId}`, as: alice });
    expect(res.data).toBe(false);
    await waitFor('B to forget Alice', async () => {
      const rows = await b.t.ctx.db.selectFrom('federation_followers').select('actor_id').where('channel_id', '=', bob.id).execute();
      return rows.length === 0;
    });
    expect(await a.federation.service.following(alice.id)).toEqual([]);

    const id = await publishOnB('Nobody on A follows this');
    await waitFor("B's delivery jobs to finish", async () => {
      const open = await b.t.ctx.db
        .selectFrom('jobs')
        .select('id')
        .where('name', 'like', 'federation.%')
        .where('status', 'in', ['queued', 'running'])
        .execute();
      return open.length === 0;
    });
    // B sent its Create to nobody: its followers are gone.
    expect(await b.t.ctx.db.selectFrom('federation_sent_videos').select('video_id').where('video_id', '=', id).executeTakeFirst()).toBeTruthy();
    expect(await onA('Nobody on A follows this')).toBeUndefined();
  });

  it('refuses a video sent for a channel nobody on A follows, even signed by its own server', async () => {
    // Carol's channel on B is known to A (looked up) but not followed: what B sends for it is dropped.
    const carol = await b.t.signUp({ fullName: 'Carol on B' });
    const lookedUp = await a.t.call({
      method: 'GET',
      url: `${API}/federation/lookup?handle=${encodeURIComponent(`${b.origin}/ap/channels/${carol.id}`)}`,
      as: alice,
    });
    expect(lookedUp.statusCode).toBe(200);
    const video = await seedVideo(b.t.ctx, carol.id, { title: 'Unasked for' });
    const arrived = await a.federation.remote.videoArrived(`${b.origin}/ap/channels/${carol.id}`, (await videoObjectOnB(video.id))!);
    expect(arrived).toBe(false);
    expect(await onA('Unasked for')).toBeUndefined();

    // Carol's server says her account is gone (a Delete of the actor itself): so is her channel here.
    const carolActor = `${b.origin}/ap/channels/${carol.id}`;
    expect(await a.federation.remote.videoGone(carolActor, carolActor)).toBe(true);
    expect(await a.t.ctx.db.selectFrom('users').select('id').where('remote_actor_id', '=', carolActor).executeTakeFirst()).toBeUndefined();
    // Another actor cannot delete her for her: only the actor's own server speaks for it.
    expect(await a.federation.remote.videoGone(`${b.origin}/ap/channels/${bob.id}`, carolActor)).toBe(false);
  });

  it("hides what B's channels had on A while an admin of A blocks B, and shows it again when unblocked", async () => {
    const admin = await signUpAs(a.t, 'admin');
    const kept = (await onA('Published before anyone followed'))!;
    const channelPath = `${API}/users/channel/${encodeURIComponent(`${bob.username}@${b.host}`)}`;
    expect((await a.t.call({ method: 'POST', url: `${API}/admin/federation/blocks`, payload: { domain: b.host }, as: admin })).statusCode).toBe(201);
    expect((await a.t.call({ method: 'GET', url: `${API}/videos/${kept.id}` })).statusCode).toBe(404);
    expect((await a.t.call({ method: 'GET', url: channelPath })).statusCode).toBe(404);
    expect((await a.t.call({ method: 'GET', url: `${API}/federation/lookup?handle=${encodeURIComponent(bobActor)}`, as: alice })).statusCode).toBe(422);

    expect((await a.t.call({ method: 'DELETE', url: `${API}/admin/federation/blocks/${encodeURIComponent(b.host)}`, as: admin })).statusCode).toBe(200);
    expect((await a.t.call({ method: 'GET', url: `${API}/videos/${kept.id}` })).statusCode).toBe(200);
    expect((await a.t.call({ method: 'GET', url: channelPath })).data).toMatchObject({ remote: true });
  });

  /** B's Video object for one of its videos, as A's library reads it. */
  async function videoObjectOnB(id: string) {
    const ctx = a.federation.activityPub.createContext(new URL(a.origin));
    const { Video } = await import('@fedify/fedify');
    const object = await ctx.lookupObject(`${b.origin}/ap/videos/${id}`);
    return object instanceof Video ? object : null;
  }
});
