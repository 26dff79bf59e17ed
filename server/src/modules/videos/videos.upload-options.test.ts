import fs from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureFile } from '../../../test/support/fixtures.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { LocalQueue } from '../../jobs/local-queue.js';
import { createMediaTools } from '../../media/media-tools.js';
import { probeMedia } from '../../media/probe.js';
import { thumbnailFromFile } from './frame-thumbnail.js';
import { ScheduledPublishing } from './scheduled-publishing.js';
import { ScheduledPublishingRepository } from './scheduled-publishing.repository.js';
import { THUMBNAIL } from './video-options.js';

const API = '/api/v1';
const silent = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;
let fan: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [owner, stranger, fan] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
  await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${owner.id}`, as: fan });
}, 60_000);
afterAll(() => t.close());

const upload = async (fields: Record<string, string>, files: Record<string, string> = { videoFile: 'clip.mp4', thumbnail: 'image.png' }) =>
  t.call({ method: 'POST', url: `${API}/videos/`, as: owner, payload: await multipart({ description: 'Upload options', ...fields }, files) });

const readStored = async (key: string) => Buffer.concat(await (await t.ctx.storage.read(key)).toArray());
const thumbnailKey = async (id: string) =>
  (await t.ctx.db.selectFrom('videos').select('thumbnail_key').where('id', '=', id).executeTakeFirstOrThrow()).thumbnail_key;
const ids = (res: { data: { videos: { _id: string }[] } }) => res.data.videos.map((v) => v._id);
/** Where a stranger could come across a video: search, the channel's list, the home list. */
const foundBy = async (as: SignedIn | undefined, id: string, title: string) => {
  const lists = await Promise.all([
    t.call({ method: 'GET', url: `${API}/videos/?query=${encodeURIComponent(title)}`, as }),
    t.call({ method: 'GET', url: `${API}/videos/?userId=${owner.id}`, as }),
    t.call({ method: 'GET', url: `${API}/videos/`, as }),
  ]);
  return lists.some((res) => ids(res).includes(id));
};
const newVideoNotices = async (as: SignedIn, videoId: string) =>
  (await t.call({ method: 'GET', url: `${API}/notifications?pageSize=50`, as })).data.notifications.filter(
    (n: { kind: string; video: { _id: string } | null }) => n.kind === 'new_video' && n.video?._id === videoId,
  ).length;
const channelCount = async () =>
  Number((await t.ctx.db.selectFrom('users').select('videos_count').where('id', '=', owner.id).executeTakeFirstOrThrow()).videos_count);

/** What a refused upload must not change: rows, stored files, temporary files, quota used. */
const snapshot = async () => ({
  rows: (await t.ctx.db.selectFrom('videos').select('id').execute()).length,
  stored: (await t.ctx.storage.list('videos/')).sort(),
  tmp: await fs.readdir(t.ctx.tmpDir).catch(() => []),
  used: (await t.call({ method: 'GET', url: `${API}/uploads/quota`, as: owner })).data.usedBytes,
});

describe('POST /videos/ with a visibility', () => {
  it("defaults to public: listed, and the channel's followers are told", async () => {
    const res = await upload({ title: 'Okapi default' });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ visibility: 'public', isPublished: true, publishAt: null });
    expect(await foundBy(stranger, res.data._id, 'Okapi')).toBe(true);
    expect(await newVideoNotices(fan, res.data._id)).toBe(1);
  });

  it('unlisted: in no list for a stranger, plays by its id, followers are not told', async () => {
    const before = await channelCount();
    const res = await upload({ title: 'Quokka unlisted', visibility: 'unlisted' });
    expect(res.statusCode).toBe(201);
    const id = res.data._id;
    expect(res.data).toMatchObject({ visibility: 'unlisted', isPublished: true, status: 'ready' });
    for (const as of [stranger, undefined]) {
      expect(await foundBy(as, id, 'Quokka')).toBe(false);
      const byId = await t.call({ method: 'GET', url: `${API}/videos/${id}`, as });
      expect(byId.statusCode).toBe(200);
      const played = await t.call({ method: 'GET', url: byId.data.videoFile.url, headers: { range: 'bytes=0-99' } });
      expect(played.statusCode).toBe(206);
    }
    expect(await foundBy(owner, id, 'Quokka')).toBe(true);
    expect(await channelCount()).toBe(before);
    expect(await newVideoNotices(fan, id)).toBe(0);
  });

  it('private: missing to everyone but its owner, followers are not told', async () => {
    const res = await upload({ title: 'Tapir private', visibility: 'private' });
    expect(res.statusCode).toBe(201);
    const id = res.data._id;
    expect(res.data).toMatchObject({ visibility: 'private', isPublished: false, publishAt: null });
    for (const as of [stranger, undefined]) {
      expect((await t.call({ method: 'GET', url: `${API}/videos/${id}`, as })).statusCode).toBe(404);
      expect(await foundBy(as, id, 'Tapir')).toBe(false);
    }
    expect((await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner })).statusCode).toBe(200);
    expect(await newVideoNotices(fan, id)).toBe(0);
  });

  it('scheduled: private until its time, then public by the durable job, and only then are followers told', async () => {
    const at = Math.ceil((Date.now() + 2 * 3600_000) / 60_000) * 60_000;
    const res = await upload({ title: 'Pangolin premiere', publishAt: new Date(at).toISOString(), visibility: 'private' });
    expect(res.statusCode).toBe(201);
    const id = res.data._id;
    expect(res.data).toMatchObject({ visibility: 'private', isPublished: false, publishAt: new Date(at).toISOString() });
    const jobs = (await t.ctx.db.selectFrom('jobs').select(['payload', 'status']).where('name', '=', 'video.publish').execute()).filter(
      (j) => JSON.parse(String(j.payload)).videoId === id,
    );
    expect(jobs).toEqual([{ payload: expect.any(String), status: 'queued' }]);
    expect(JSON.parse(String(jobs[0]!.payload))).toEqual({ videoId: id, publishAt: at });
    expect((await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: stranger })).statusCode).toBe(404);
    expect(await newVideoNotices(fan, id)).toBe(0);
    // Without a visibility, a publishAt alone schedules too.
    const alone = await upload({ title: 'Pangolin encore', publishAt: new Date(at + 60_000).toISOString() });
    expect(alone.data).toMatchObject({ visibility: 'private', publishAt: new Date(at + 60_000).toISOString() });

    let clock = at - 1000;
    const queue = new LocalQueue({ db: t.ctx.db, dialect: t.ctx.dialect, logger: silent });
    const publishing = new ScheduledPublishing({
      videos: new ScheduledPublishingRepository(t.ctx.db),
      queue,
      logger: silent,
      now: () => clock,
      events: t.services.notifications,
    });
    expect(await publishing.publish({ videoId: id, publishAt: at })).toBe('early');
    expect((await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: stranger })).statusCode).toBe(404);
    clock = at;
    expect(await publishing.publish({ videoId: id, publishAt: at })).toBe('published');
    const now = await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: stranger });
    expect(now.data).toMatchObject({ visibility: 'public', isPublished: true, publishAt: null });
    expect(await foundBy(stranger, id, 'Pangolin')).toBe(true);
    expect(await newVideoNotices(fan, id)).toBe(1);
  });
});

describe('POST /videos/ with a frame as the thumbnail', () => {
  it('cuts the frame at thumbnailTime from the uploaded file as a WebP thumbnail, without an image', async () => {
    const res = await upload({ title: 'Frame cut', thumbnailTime: '1.5' }, { videoFile: 'clip.mp4' });
    expect(res.statusCode).toBe(201);
    const key = await thumbnailKey(res.data._id);
    expect(key).toMatch(new RegExp(`^videos/${res.data._id}/thumbnail-[\\w-]+\\.webp$`));
    expect(res.data.thumbnail.url).toBe(t.ctx.storage.url(key));
    const stored = await readStored(key);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });

    // The same frame cut the same way is the same picture; another moment of the clip is not.
    const clip = await fixtureFile('clip.mp4');
    const tools = createMediaTools(t.ctx.config);
    const { duration } = await probeMedia(clip, { tools });
    const cut = (s: number) => thumbnailFromFile(clip, s, duration, { media: tools, tmpDir: t.dataDir }, THUMBNAIL);
    const [same, other] = await Promise.all([cut(1.5), cut(0.1)]);
    const raw = (b: Buffer) => sharp(b).raw().toBuffer();
    const [a, b, c] = await Promise.all([raw(stored), raw(same), raw(other)]);
    expect(a.equals(b)).toBe(true);
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - c[i]!) > 16) differing++;
    expect(differing / a.length).toBeGreaterThan(0.01);
    expect(await fs.readdir(t.ctx.tmpDir)).toEqual([]);
  });

  it('takes a thumbnail image as before when thumbnailTime is left blank', async () => {
    const res = await upload({ title: 'Blank time', thumbnailTime: '', visibility: '', publishAt: '' });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ visibility: 'public', publishAt: null });
  });
});

describe('POST /videos/ refusals of the options leave nothing behind', () => {
  const cases: [string, Record<string, string>, Record<string, string>, { path: string; message: string | RegExp }][] = [
    [
      'an unknown visibility',
      { visibility: 'secret' },
      { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      { path: 'visibility', message: 'visibility must be one of public, unlisted, private' },
    ],
    [
      'a malformed publishAt',
      { publishAt: 'next friday' },
      { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      { path: 'publishAt', message: /^publishAt must be an ISO 8601 date and time/ },
    ],
    [
      'a past publishAt',
      { publishAt: new Date(Date.now() - 60_000).toISOString() },
      { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      { path: 'publishAt', message: 'publishAt must be in the future' },
    ],
    [
      'publishAt with public',
      { publishAt: new Date(Date.now() + 3600_000).toISOString(), visibility: 'public' },
      { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      { path: 'visibility', message: 'A scheduled video is private until its publishAt; leave visibility out or send private' },
    ],
    [
      'publishAt with unlisted',
      { publishAt: new Date(Date.now() + 3600_000).toISOString(), visibility: 'unlisted' },
      { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      { path: 'visibility', message: 'A scheduled video is private until its publishAt; leave visibility out or send private' },
    ],
    ['a negative thumbnailTime', { thumbnailTime: '-1' }, { videoFile: 'clip.mp4' }, { path: 'thumbnailTime', message: 'thumbnailTime must be at least 0' }],
    [
      'a thumbnailTime that is not a number',
      { thumbnailTime: 'middle' },
      { videoFile: 'clip.mp4' },
      { path: 'thumbnailTime', message: 'thumbnailTime must be a number of seconds' },
    ],
    [
      'both a thumbnail image and a thumbnailTime',
      { thumbnailTime: '1' },
      { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      { path: 'thumbnailTime', message: 'Send either a thumbnail image or a thumbnailTime, not both' },
    ],
    ['neither a thumbnail image nor a thumbnailTime', {}, { videoFile: 'clip.mp4' }, { path: 'thumbnail', message: 'thumbnail is required' }],
    [
      'a thumbnailTime past the end of the video',
      { thumbnailTime: '30' },
      { videoFile: 'clip.mp4' },
      { path: 'thumbnailTime', message: 'thumbnailTime must be at most 2' },
    ],
  ];
  for (const [what, fields, files, error] of cases) {
    it(`refuses ${what} with a 400`, async () => {
      const before = await snapshot();
      const res = await upload({ title: 'Refused', ...fields }, files);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
      expect(res.data.errors).toEqual([
        { path: error.path, message: typeof error.message === 'string' ? error.message : expect.stringMatching(error.message) },
      ]);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("says what the video's length is when thumbnailTime is past its end", async () => {
    const res = await upload({ title: 'Refused', thumbnailTime: '2.5' }, { videoFile: 'clip.mp4' });
    expect(res.statusCode).toBe(400);
    expect(res.message).toBe("thumbnailTime must be within the video's length (0 to 2 s)");
  });

  it('refuses the options signed out like any upload', async () => {
    const res = await t.call({
      method: 'POST',
      url: `${API}/videos/`,
      payload: await multipart({ title: 'x', description: 'y', visibility: 'private', thumbnailTime: '1' }, { videoFile: 'clip.mp4' }),
    });
    expect(res.statusCode).toBe(401);
  });
});
