import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../test/support/seed.js';
import { signUpAs } from '../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';

// A viewer's notifications (the list and the unread count) are kept for that viewer: the next ask
// is served from the cache until a notification of theirs is stored or marked read, or something
// the list shows changes publicly; never to anyone else.
const API = '/api/v1';

let t: TestApp;
let viewer: SignedIn;
let commenter: SignedIn;
let neighbour: SignedIn;
let videoId: string;

beforeAll(async () => {
  t = await createTestApp();
  [viewer, commenter, neighbour] = [await t.signUp(), await t.signUp(), await t.signUp()];
  videoId = (await seedVideo(t.ctx, viewer.id, { title: 'The viewer’s own video' })).id;
}, 60_000);
afterAll(() => t.close());

const list = (as: SignedIn, query = '') => t.call({ method: 'GET', url: `${API}/notifications${query}`, as });
const unread = (as: SignedIn) => t.call({ method: 'GET', url: `${API}/notifications/unread-count`, as });
const comment = async (as: SignedIn, content: string) => {
  const res = await t.call({ method: 'POST', url: `${API}/comments/${videoId}`, as, payload: { content } });
  expect(res.statusCode).toBe(201);
};
const contents = (res: { data: { notifications: { comment: { content: string } | null }[] } }) => res.data.notifications.map((n) => n.comment?.content);

describe("a viewer's notifications", () => {
  it('are kept for that viewer alone', async () => {
    await comment(commenter, 'First!');
    const first = await list(viewer);
    expect(first.headers['x-cache']).toBe('miss');
    expect(contents(first)).toEqual(['First!']);
    const second = await list(viewer, '?pageNumber=1');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect((await unread(viewer)).headers['x-cache']).toBe('miss');
    const count = await unread(viewer);
    expect(count.headers['x-cache']).toBe('hit');
    expect(count.data.count).toBe(1);
    // The same URLs asked by someone else are theirs.
    const theirs = await list(neighbour);
    expect(theirs.headers['x-cache']).toBe('miss');
    expect(theirs.data.notifications).toEqual([]);
    expect((await unread(neighbour)).data.count).toBe(0);
  });

  it('are made afresh once a notification of theirs is stored, and not for anyone else’s', async () => {
    // A comment is a public change too: everything kept before it is made afresh.
    const neighbourVideo = await seedVideo(t.ctx, neighbour.id, { title: 'The neighbour’s video' });
    expect(
      (await t.call({ method: 'POST', url: `${API}/comments/${neighbourVideo.id}`, as: commenter, payload: { content: 'For the neighbour' } })).statusCode,
    ).toBe(201);
    await list(viewer);
    await unread(viewer);
    expect((await list(viewer)).headers['x-cache']).toBe('hit');
    // The neighbour reading theirs (a change of their own alone) leaves the viewer's kept answers alone.
    expect((await t.call({ method: 'PATCH', url: `${API}/notifications/read`, as: neighbour, payload: {} })).data.marked).toBe(1);
    expect((await list(viewer)).headers['x-cache']).toBe('hit');
    expect((await unread(viewer)).headers['x-cache']).toBe('hit');

    await comment(commenter, 'Second!');
    const fresh = await list(viewer);
    expect(fresh.headers['x-cache']).toBe('miss');
    expect(contents(fresh)).toEqual(['Second!', 'First!']);
    const count = await unread(viewer);
    expect(count.headers['x-cache']).toBe('miss');
    expect(count.data.count).toBe(2);
  });

  it('are made afresh once marked read', async () => {
    await list(viewer);
    await unread(viewer);
    expect((await unread(viewer)).headers['x-cache']).toBe('hit');
    const marked = await t.call({ method: 'PATCH', url: `${API}/notifications/read`, as: viewer, payload: {} });
    expect(marked.statusCode).toBe(200);
    const after = await list(viewer);
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.data.notifications.every((n: { read: boolean }) => n.read)).toBe(true);
    const count = await unread(viewer);
    expect(count.headers['x-cache']).toBe('miss');
    expect(count.data.count).toBe(0);
  });

  it('are made afresh when what they show changes publicly (the commenter is renamed)', async () => {
    await list(viewer);
    expect((await list(viewer)).headers['x-cache']).toBe('hit');
    const renamed = `${commenter.username}z`;
    expect((await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: commenter, payload: { username: renamed } })).statusCode).toBe(200);
    const after = await list(viewer);
    expect(after.headers['x-cache']).toBe('miss');
    expect(after.data.notifications[0].actor.username).toBe(renamed);
  });

  it('are made afresh when an admin changes the viewer’s role (which notifications they may open depends on it)', async () => {
    const admin = await signUpAs(t, 'admin');
    await list(viewer);
    await unread(viewer);
    expect((await list(viewer)).headers['x-cache']).toBe('hit');
    const changed = await t.call({ method: 'PATCH', url: `${API}/admin/users/${viewer.id}`, as: admin, payload: { role: 'moderator' } });
    expect(changed.statusCode).toBe(200);
    expect((await list(viewer)).headers['x-cache']).toBe('miss');
    expect((await unread(viewer)).headers['x-cache']).toBe('miss');
    // A patch that leaves the role as it is changes nothing kept.
    expect((await t.call({ method: 'PATCH', url: `${API}/admin/users/${viewer.id}`, as: admin, payload: { role: 'moderator' } })).statusCode).toBe(200);
    expect((await list(viewer)).headers['x-cache']).toBe('hit');
  });

  it('are never served signed out or once the session is gone', async () => {
    const session = await t.signUp();
    await list(session);
    expect((await list(session)).headers['x-cache']).toBe('hit');
    expect((await t.call({ method: 'GET', url: `${API}/notifications` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `${API}/notifications/unread-count` })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: `${API}/users/logout`, as: session })).statusCode).toBe(200);
    expect((await list(session)).statusCode).toBe(401);
  });
});
