import fs from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../lib/ids.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const FIELDS = { title: 'Dinosaur walk', description: 'A short walk with a dinosaur' };

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
  other = await t.signUp();
});
afterAll(() => t.close());

const upload = async (app: TestApp, as: SignedIn | undefined, fields: Record<string, string>, files: Record<string, string>) =>
  app.call({ method: 'POST', url: `${API}/videos/`, as, payload: await multipart(fields, files) });

/** Nothing of a rejected upload is left: no row, no stored file, no temporary file. */
async function expectNothingLeft(app: TestApp) {
  const rows = await app.ctx.db.selectFrom('videos').select('id').execute();
  expect(rows).toEqual([]);
  expect(await app.ctx.storage.list('videos/')).toEqual([]);
  expect(await fs.readdir(app.ctx.tmpDir).catch(() => [])).toEqual([]);
}

const videosCount = async (app: TestApp, userId: string) =>
  (await app.ctx.db.selectFrom('users').select('videos_count').where('id', '=', userId).executeTakeFirstOrThrow()).videos_count;

describe('POST /videos/ rejections', () => {
  it('needs a signed-in user', async () => {
    const res = await upload(t, undefined, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, data: null });
    await expectNothingLeft(t);
  });

  it('lists every missing field and file', async () => {
    const res = await upload(t, owner, {}, {});
    expect(res.statusCode).toBe(400);
    expect(res.data.errors.map((e: { path: string }) => e.path).sort()).toEqual(['description', 'thumbnail', 'title', 'videoFile']);
    expect(res.data.errors).toContainEqual({ path: 'videoFile', message: 'videoFile is required' });

    const noThumb = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4' });
    expect(noThumb.statusCode).toBe(400);
    expect(noThumb.data.errors).toEqual([{ path: 'thumbnail', message: 'thumbnail is required' }]);

    const longTitle = await upload(t, owner, { ...FIELDS, title: 'x'.repeat(101) }, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    expect(longTitle.statusCode).toBe(400);
    expect(longTitle.data.errors).toEqual([{ path: 'title', message: 'title must be at most 100 characters' }]);
    await expectNothingLeft(t);
  });

  it('refuses a text file named .mp4 as unreadable', async () => {
    const res = await upload(t, owner, FIELDS, { videoFile: 'not-video.mp4', thumbnail: 'image.png' });
    expect(res.statusCode).toBe(422);
    expect(res.message).toBe('videoFile is not a readable video');
    await expectNothingLeft(t);
  });

  it('refuses a real video that is not an mp4', async () => {
    const res = await upload(t, owner, FIELDS, { videoFile: 'clip.mkv', thumbnail: 'image.png' });
    expect(res.statusCode).toBe(415);
    expect(res.message).toBe('videoFile must be an mp4 video');
    await expectNothingLeft(t);
  });

  it('refuses an mp4 without a video stream', async () => {
    const audioOnly = `${t.dataDir}/audio-only.mp4`;
    const { runProcess } = await import('../../media/run-process.js');
    await runProcess(t.ctx.config.ffmpegPath, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'aac', '-f', 'mp4', audioOnly], {});
    const res = await upload(t, owner, FIELDS, { videoFile: audioOnly, thumbnail: 'image.png' });
    expect(res.statusCode).toBe(415);
    expect(res.message).toBe('videoFile must be an mp4 video');
    await fs.rm(audioOnly);
    await expectNothingLeft(t);
  });

  it('refuses a gif thumbnail (415) and a thumbnail that is not an image (422)', async () => {
    const gif = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.gif' });
    expect(gif.statusCode).toBe(415);
    expect(gif.message).toBe('thumbnail must be a png, jpeg, jpg or webp image');
    const garbage = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'garbage.png' });
    expect(garbage.statusCode).toBe(422);
    expect(garbage.message).toBe('thumbnail is not a readable image');
    await expectNothingLeft(t);
  });

  it('removes the row and files when processing cannot start', async () => {
    const spy = vi.spyOn(t.services.processing, 'start').mockRejectedValueOnce(new Error('queue is down'));
    const res = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(res.message).toBe('Internal server error');
    await expectNothingLeft(t);
    expect(await videosCount(t, owner.id)).toBe(0);
  });

  it('refuses a video over the size limit with 413', async () => {
    const small = await createTestApp({ env: { MAX_VIDEO_BYTES: '1000' } });
    try {
      const user = await small.signUp();
      const res = await upload(small, user, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ success: false, statusCode: 413 });
      expect(res.message).toContain('videoFile');
      await expectNothingLeft(small);
    } finally {
      await small.close();
    }
  });

  it('rate-limits uploads per hour', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_UPLOADS_PER_HOUR: '1' } });
    try {
      const user = await limited.signUp();
      expect((await upload(limited, user, {}, {})).statusCode).toBe(400);
      const res = await upload(limited, user, {}, {});
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeTruthy();
    } finally {
      await limited.close();
    }
  });
});

describe('POST /videos/ success', () => {
  it('stores the source and a re-encoded thumbnail, inserts the row, then starts processing', async () => {
    const seenAtStart: unknown[] = [];
    const start = t.services.processing.start.bind(t.services.processing);
    const spy = vi.spyOn(t.services.processing, 'start').mockImplementation(async (id) => {
      seenAtStart.push(await t.ctx.db.selectFrom('videos').select(['status', 'progress']).where('id', '=', id).executeTakeFirst());
      return start(id);
    });
    const res = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.jpg' });
    spy.mockRestore();
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ statusCode: 201, success: true, message: 'Video uploaded successfully' });
    const id = res.data._id as string;
    expect(seenAtStart).toEqual([{ status: 'processing', progress: 0 }]);
    expect(res.data).toMatchObject({
      title: 'Dinosaur walk',
      description: 'A short walk with a dinosaur',
      views: 0,
      isPublished: true,
      width: 320,
      height: 240,
      likesCount: 0,
      commentsCount: 0,
      isLiked: false,
      hls: null,
      storyboard: null,
      owner: { _id: owner.id, username: owner.username },
    });
    expect(res.data.duration).toBeCloseTo(2, 0);

    const keys = (await t.ctx.storage.list(`videos/${id}/`)).sort();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(`videos/${id}/source.mp4`);
    expect(keys[1]).toMatch(new RegExp(`^videos/${id}/thumbnail-[\\w-]+\\.webp$`));
    expect(res.data.thumbnail.url).toBe(t.ctx.storage.url(keys[1]!));
    const thumb = await sharp(t.ctx.storage.localPath(keys[1]!)!).metadata();
    expect(thumb.format).toBe('webp');
    expect(await fs.readdir(t.ctx.tmpDir)).toEqual([]);

    const row = await t.ctx.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.owner_text).toBe(`${owner.username} User ${owner.username.slice(4)}`);
    expect(row.source_key).toBe(`videos/${id}/source.mp4`);
    // The served-as-is processing of the tests makes it ready at once; the channel count follows.
    expect(row.status).toBe('ready');
    expect(await videosCount(t, owner.id)).toBe(1);

    const found = await t.call({ method: 'GET', url: `${API}/videos/?query=walk` });
    expect(found.data.videos.map((v: { _id: string }) => v._id)).toEqual([id]);
  });

  it('answers a processing video with the stored upload as its playable url until processing is done', async () => {
    const spy = vi.spyOn(t.services.processing, 'start').mockResolvedValueOnce(undefined);
    const res = await upload(t, other, { title: 'Slow one', description: 'Still cooking' }, { videoFile: 'clip.mp4', thumbnail: 'image.webp' });
    spy.mockRestore();
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ status: 'processing', progress: 0, hls: null });
    expect(res.data.videoFile.url).toBe(`/media/videos/${res.data._id}/source.mp4`);
    const served = await t.call({ method: 'GET', url: res.data.videoFile.url, headers: { range: 'bytes=0-99' } });
    expect(served.statusCode).toBe(206);
    expect(served.headers['content-type']).toBe('video/mp4');
    expect(await videosCount(t, other.id)).toBe(0);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${res.data._id}` })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${res.data._id}`, as: other })).statusCode).toBe(200);
    await t.call({ method: 'DELETE', url: `${API}/videos/${res.data._id}`, as: other });
  });
});

describe('PATCH /videos/{id}', () => {
  let id: string;
  beforeAll(async () => {
    const res = await upload(t, owner, { title: 'Before edit', description: 'Original words' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    id = res.data._id;
  });
  const patch = async (as: SignedIn | undefined, fields: Record<string, string>, files: Record<string, string> = {}, videoId = id) =>
    t.call({ method: 'PATCH', url: `${API}/videos/${videoId}`, as, payload: await multipart(fields, files) });

  it('is for the owner only', async () => {
    expect((await patch(undefined, { title: 'x' })).statusCode).toBe(401);
    const res = await patch(other, { title: 'Hijacked' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, data: null });
    expect((await patch(owner, { title: 'x' }, {}, newId())).statusCode).toBe(404);
    expect((await patch(owner, { title: 'x' }, {}, 'a!')).statusCode).toBe(400);
  });

  it('needs at least one value', async () => {
    for (const fields of [{}, { title: '', description: '   ' }]) {
      const res = await patch(owner, fields);
      expect(res.statusCode).toBe(400);
      expect(res.message).toBe('No update value provided. Please provide at least one value.');
    }
    const long = await patch(owner, { description: 'x'.repeat(5001) });
    expect(long.statusCode).toBe(400);
    expect(long.data.errors[0].path).toBe('description');
  });

  it('changes the title and description, and search follows', async () => {
    const res = await patch(owner, { title: 'Brontosaurus lunch', description: '' });
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Video updated successfully');
    expect(res.data).toMatchObject({ _id: id, title: 'Brontosaurus lunch', description: 'Original words' });
    const found = await t.call({ method: 'GET', url: `${API}/videos/?query=bronto` });
    expect(found.data.videos.map((v: { _id: string }) => v._id)).toEqual([id]);
  });

  it('replaces the thumbnail and removes the old file only after the new one is stored', async () => {
    const before = await t.ctx.db.selectFrom('videos').select('thumbnail_key').where('id', '=', id).executeTakeFirstOrThrow();
    const bad = await patch(owner, {}, { thumbnail: 'image.gif' });
    expect(bad.statusCode).toBe(415);
    expect(await t.ctx.storage.stat(before.thumbnail_key)).not.toBeNull();
    expect((await t.ctx.storage.list(`videos/${id}/`)).filter((k) => k.includes('thumbnail'))).toEqual([before.thumbnail_key]);

    const res = await patch(owner, {}, { thumbnail: 'image.png' });
    expect(res.statusCode).toBe(200);
    const after = await t.ctx.db.selectFrom('videos').select('thumbnail_key').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.thumbnail_key).not.toBe(before.thumbnail_key);
    expect(res.data.thumbnail.url).toBe(t.ctx.storage.url(after.thumbnail_key));
    expect(await t.ctx.storage.stat(before.thumbnail_key)).toBeNull();
    expect((await t.ctx.storage.list(`videos/${id}/`)).filter((k) => k.includes('thumbnail'))).toEqual([after.thumbnail_key]);
    expect(await fs.readdir(t.ctx.tmpDir)).toEqual([]);
  });
});

describe('DELETE /videos/{id}', () => {
  it('is for the owner only', async () => {
    const res = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    const id = res.data._id;
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${id}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: other })).statusCode).toBe(403);
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${newId()}`, as: owner })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${id}` })).statusCode).toBe(200);
    await t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: owner });
  });

  it('removes the row, what points at it, the counters it fed and every file under its prefix', async () => {
    const res = await upload(t, owner, FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    const id = res.data._id as string;
    const keep = await upload(t, owner, { title: 'Keeper', description: 'Stays' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    const db = t.ctx.db;
    // Outputs of processing live under the same prefix.
    await t.ctx.storage.put(`videos/${id}/hls/master.m3u8`, Buffer.from('#EXTM3U\n'));
    await t.ctx.storage.put(`videos/${id}/storyboard/sheet-0.jpg`, Buffer.from('x'));
    const commentId = newId();
    await db
      .insertInto('comments')
      .values({ id: commentId, video_id: id, owner_id: other.id, content: 'Nice', likes_count: 1, created_at: 1, updated_at: 1 })
      .execute();
    await db
      .insertInto('likes')
      .values([
        { user_id: other.id, target_type: 'video', target_id: id, created_at: 1 },
        { user_id: owner.id, target_type: 'comment', target_id: commentId, created_at: 1 },
        { user_id: other.id, target_type: 'video', target_id: keep.data._id, created_at: 1 },
      ])
      .execute();
    const playlistId = newId();
    await db
      .insertInto('playlists')
      .values({ id: playlistId, owner_id: other.id, name: 'Mix', description: '', visibility: 'private', videos_count: 2, created_at: 1, updated_at: 1 })
      .execute();
    await db
      .insertInto('playlist_videos')
      .values([
        { playlist_id: playlistId, video_id: id, position: 0, added_at: 1 },
        { playlist_id: playlistId, video_id: keep.data._id, position: 1, added_at: 1 },
      ])
      .execute();
    await db.insertInto('watch_history').values({ user_id: other.id, video_id: id, watched_at: 1 }).execute();
    await db.insertInto('view_events').values({ video_id: id, viewer_key: 'u:x', counted_at: 1 }).execute();
    const countBefore = await videosCount(t, owner.id);

    const del = await t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: owner });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ statusCode: 200, success: true, message: 'Video deleted successfully', data: {} });

    expect(await db.selectFrom('videos').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('comments').select('id').where('video_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('likes').select(['target_type', 'target_id']).execute()).toEqual([{ target_type: 'video', target_id: keep.data._id }]);
    expect((await db.selectFrom('playlists').select('videos_count').where('id', '=', playlistId).executeTakeFirstOrThrow()).videos_count).toBe(1);
    expect(await db.selectFrom('watch_history').select('video_id').where('video_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('view_events').select('video_id').where('video_id', '=', id).execute()).toEqual([]);
    expect(await videosCount(t, owner.id)).toBe(countBefore - 1);
    expect(await t.ctx.storage.list(`videos/${id}/`)).toEqual([]);
    expect((await t.ctx.storage.list(`videos/${keep.data._id}/`)).length).toBe(2);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: owner })).statusCode).toBe(404);
  });
});
