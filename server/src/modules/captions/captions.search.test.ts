import { VideoPage } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { newId } from '../../lib/ids.js';
import { CaptionsRepository } from './captions.repository.js';
import { VIDEOS_PER_SEARCH } from '../search/search.service.js';

const API = '/api/v1';

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ username: 'kitemaker', fullName: 'Kite Maker' });
  other = await t.signUp();
});
afterAll(() => t.close());

/** A caption written straight through the repository: cues as [seconds, words]. */
async function caption(videoId: string, cues: [number, string][], language = 'en') {
  const id = newId();
  await new CaptionsRepository(t.ctx.db).replace(
    { id, video_id: videoId, language, label: language, storage_key: `videos/${videoId}/captions/${id}.vtt`, cue_count: cues.length, created_at: Date.now() },
    cues.map(([s, text]) => ({ startMs: s * 1000, text })),
  );
  return id;
}

const search = async (query: string, extra = '', as?: SignedIn) => {
  const res = await t.call({ method: 'GET', url: `${API}/videos/?query=${encodeURIComponent(query)}${extra}`, as });
  expect(res.statusCode).toBe(200);
  return VideoPage.parse(res.data);
};

describe('search by what is said in the captions', () => {
  it('finds a video by a word spoken only in its captions, saying where; title matches come first', async () => {
    const spoken = await seedVideo(t.ctx, owner.id, { title: 'Morning on the cliffs', description: 'Birds' });
    await caption(spoken.id, [
      [1, 'Good morning'],
      [192.5, 'Look, a brachiosaurus over there'],
      [200, 'Another brachiosaurus'],
    ]);
    const titled = await seedVideo(t.ctx, other.id, { title: 'Brachiosaurus facts', description: 'Long necks' });
    await caption(titled.id, [[4, 'The brachiosaurus ate leaves']]);

    const page = await search('brachiosaurus');
    expect(page.videos.map((v) => v._id)).toEqual([titled.id, spoken.id]);
    expect(page.totalDocs).toBe(2);
    expect(page.videos[0]!.captionMatch).toBeUndefined();
    expect(page.videos[1]!.captionMatch).toEqual({ start: 192.5, text: 'Look, a brachiosaurus over there' });

    // Prefixes, several words in one cue, and any case; other languages' tracks count too.
    expect((await search('BRACHIO')).videos.map((v) => v._id)).toEqual([titled.id, spoken.id]);
    expect((await search('look brachio')).videos.map((v) => v._id)).toEqual([spoken.id]);
    await caption(spoken.id, [[7, 'Olá, pterossauro']], 'pt');
    expect((await search('pterossauro')).videos[0]!.captionMatch).toEqual({ start: 7, text: 'Olá, pterossauro' });
    // Words in different cues are not one match.
    expect((await search('morning brachiosaurus')).videos.map((v) => v._id)).toEqual([]);
  });

  it('pages through title matches, then caption matches', async () => {
    const a = await seedVideo(t.ctx, owner.id, { title: 'Quetzalcoatlus wings' });
    const b = await seedVideo(t.ctx, owner.id, { title: 'Flying reptiles' });
    await caption(b.id, [[3, 'quetzalcoatlus was huge']]);
    const first = await search('quetzalcoatlus', '&pageSize=1&pageNumber=1');
    const second = await search('quetzalcoatlus', '&pageSize=1&pageNumber=2');
    expect(first.videos.map((v) => v._id)).toEqual([a.id]);
    expect(second.videos.map((v) => v._id)).toEqual([b.id]);
    expect(second.videos[0]!.captionMatch?.start).toBe(3);
    expect(second).toMatchObject({ totalDocs: 2, totalPages: 2, hasNextPage: false, hasPrevPage: true });
    expect((await search('quetzalcoatlus', '&pageSize=1&pageNumber=3')).videos).toEqual([]);
    // An explicit sort keeps the same rule: caption matches after the others.
    expect((await search('quetzalcoatlus', '&sortBy=title&sortType=asc')).videos.map((v) => v._id)).toEqual([a.id, b.id]);
  });

  it('keeps hidden videos hidden, narrows to a channel, and forgets a deleted caption', async () => {
    const hidden = await seedVideo(t.ctx, owner.id, { title: 'Secret draft' });
    const captionId = await caption(hidden.id, [[2, 'ankylosaurus armour']]);
    await changeVideos(t.ctx, [hidden.id], { visibility: 'private' });
    expect((await search('ankylosaurus')).videos).toEqual([]);
    expect((await search('ankylosaurus', `&userId=${owner.id}`, other)).videos).toEqual([]);
    expect((await search('ankylosaurus', `&userId=${owner.id}`, owner)).videos.map((v) => v._id)).toEqual([hidden.id]);
    expect((await search('ankylosaurus', `&userId=${other.id}`, other)).videos).toEqual([]);

    await changeVideos(t.ctx, [hidden.id], { visibility: 'public' });
    expect((await search('ankylosaurus')).videos.map((v) => v._id)).toEqual([hidden.id]);
    await new CaptionsRepository(t.ctx.db).delete(captionId);
    // As the service does after its write: signed-out answers kept before it are not served again.
    await t.ctx.answers.changed();
    expect((await search('ankylosaurus')).videos).toEqual([]);
  });

  it('treats query syntax as words', async () => {
    const v = await seedVideo(t.ctx, owner.id, { title: 'Plain' });
    await caption(v.id, [[1, 'stegosaurus: "plates" (and) spikes*']]);
    for (const q of ['"stegosaurus"*', 'stegosaurus AND', "plates' (spikes)", 'stego:* & plates', 'spikes*']) {
      expect(
        (await search(q)).videos.map((x) => x._id),
        q,
      ).toEqual([v.id]);
    }
  });

  it('stays bounded for a word said in many videos', async () => {
    const many = VIDEOS_PER_SEARCH + 10;
    for (let i = 0; i < many; i++) {
      const v = await seedVideo(t.ctx, other.id, { title: `Clip ${i}` });
      await caption(
        v.id,
        Array.from({ length: 20 }, (_, s) => [s, `velociraptor number ${s}`] as [number, string]),
      );
    }
    const page = await search('velociraptor', '&pageSize=50');
    expect(page.totalDocs).toBeLessThanOrEqual(VIDEOS_PER_SEARCH);
    expect(page.totalDocs).toBeGreaterThan(0);
    expect(page.videos.every((v) => v.captionMatch?.text.startsWith('velociraptor number'))).toBe(true);
  });
});
