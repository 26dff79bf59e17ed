import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../../test/support/databases.js';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { VideoListFilter } from '../../db/video-list.js';
import { searchTsQuery } from './postgres-search.repository.js';
import { WORDS_PER_PREFIX } from './query-syntax.js';
import { createSearch } from './search.factory.js';
import type { SearchService } from './search.service.js';

/** Typed prefixes spelled out as the index's whole words, and the same answers on both databases. */
let t: TestApp;
let owner: SignedIn;
let search: SearchService;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ username: 'lexicon', fullName: 'Lex Icon' });
  search = createSearch(t.ctx.db, t.ctx.dialect);
});
afterAll(() => t.close());

const titlesFound = async (query: string[]) => {
  const filter: VideoListFilter = {
    includeHidden: false,
    words: query,
    byRelevance: true,
    sortBy: 'createdAt',
    sortType: 'desc',
    limit: 50,
    offset: 0,
  };
  return (await search.videos(filter)).rows.map((r) => r.title).sort();
};

describe('searching by the start of words', () => {
  it('finds the whole words a prefix starts, words added by a later edit too, and nothing for a prefix of no word', async () => {
    const garden = await seedVideo(t.ctx, owner.id, { title: 'Gardening by the riverside', description: 'Beds and rows' });
    await seedVideo(t.ctx, owner.id, { title: 'Gardens of the river', description: 'A walk' });
    await seedVideo(t.ctx, owner.id, { title: 'Rivets', description: 'Metal work' });

    expect(await titlesFound(['garden', 'river'])).toEqual(['Gardening by the riverside', 'Gardens of the river']);
    expect(await titlesFound(['riv'])).toEqual(['Gardening by the riverside', 'Gardens of the river', 'Rivets']);
    expect(await titlesFound(['zebraf'])).toEqual([]);

    // A word that arrives with an edit is found by its start at once.
    await changeVideos(t.ctx, [garden.id], { title: 'Zebrafish in the garden river' });
    expect(await titlesFound(['zebraf', 'gard'])).toEqual(['Zebrafish in the garden river']);
    // And the word the edit removed no longer finds the video, though it stays a known word.
    expect(await titlesFound(['gardening'])).toEqual([]);
  });

  it('finds every video when a prefix starts more words than are spelled out', async () => {
    for (let i = 0; i <= WORDS_PER_PREFIX; i++) await seedVideo(t.ctx, owner.id, { title: `Quokka${i} day`, description: 'Island' });
    expect(await titlesFound(['quokka'])).toHaveLength(WORDS_PER_PREFIX + 1);
    expect(await titlesFound(['quokka3'])).toEqual(['Quokka3 day', 'Quokka30 day', 'Quokka31 day', 'Quokka32 day']);
  });
});

describe.runIf(testDialect === 'postgres')('the words PostgreSQL keeps', () => {
  const query = async (words: string[]) => {
    const q = await searchTsQuery(t.ctx.db, words);
    return q === null ? null : q.compile(t.ctx.db).parameters[0];
  };

  it('holds every word of new and edited videos, the channel’s names included', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Xenon lamps', description: 'Bright-ish light' });
    expect(await query(['xeno', 'lam'])).toBe("( 'xenon' ) & ( 'lamps' )");
    expect(await query(['lexic'])).toBe("( 'lexicon' )");
    // The parser keeps a hyphenated word whole as well as in parts; both are words of the index.
    expect(await query(['bright'])).toBe("( 'bright' | 'bright-ish' )");
    expect(await query(['yttri'])).toBeNull();
    await changeVideos(t.ctx, [video.id], { description: 'Yttrium glow' });
    expect(await query(['yttri'])).toBe("( 'yttrium' )");
  });

  it('leaves words it cannot spell out exactly to to_tsquery', async () => {
    const q = await searchTsQuery(t.ctx.db, ['café']);
    expect(q!.compile(t.ctx.db).sql).toContain('to_tsquery');
  });
});

describe.runIf(testDialect === 'sqlite')('the words SQLite keeps', () => {
  const counts = async (...words: string[]) => {
    const rows = await sql<{ word: string; videos: number }>`select word, videos from search_words where word in (${sql.join(words)})`.execute(t.ctx.db);
    return Object.fromEntries(rows.rows.map((r) => [r.word, Number(r.videos)]));
  };

  it('counts the videos holding each word, split as FTS5 splits it, through inserts, edits and deletes', async () => {
    const a = await seedVideo(t.ctx, owner.id, { title: 'Okapi café', description: 'Okapi okapi' });
    await seedVideo(t.ctx, owner.id, { title: 'Okapis', description: 'Forest' });
    // Each video once however often it says the word; the diacritic folded as the index folds it.
    expect(await counts('okapi', 'okapis', 'cafe', 'forest')).toEqual({ okapi: 1, okapis: 1, cafe: 1, forest: 1 });
    await changeVideos(t.ctx, [a.id], { title: 'Okapis at dusk', description: 'Quiet' });
    expect(await counts('okapi', 'okapis', 'cafe', 'dusk')).toEqual({ okapi: 0, okapis: 2, cafe: 0, dusk: 1 });
    // A word no video holds any more is not spelled out: its prefix finds nothing.
    expect(await titlesFound(['okapi'])).toEqual(['Okapis', 'Okapis at dusk']);
    expect(await titlesFound(['caf'])).toEqual([]);
    await t.ctx.db.deleteFrom('videos').where('id', '=', a.id).execute();
    expect(await counts('okapis', 'dusk')).toEqual({ okapis: 1, dusk: 0 });
    expect(await titlesFound(['okap'])).toEqual(['Okapis']);
  });
});
