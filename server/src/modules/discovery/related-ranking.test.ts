import { describe, expect, it } from 'vitest';
import { rankRelated, withoutLoops } from './related-ranking.js';

const none = { coWatch: new Map<string, number>(), sameChannel: [], similar: [] };

describe('rankRelated', () => {
  it('puts what viewers watched next first, then similar videos, then the same channel, never the video itself', () => {
    const ranked = rankRelated('self', {
      coWatch: new Map([
        ['next', 4],
        ['later', 1],
        ['self', 9],
      ]),
      similar: ['alike', 'later', 'self'],
      sameChannel: ['sibling', 'alike'],
    });
    // next: 3; alike: 1.5 + 1 x 1/2 = 2; later: 0.75 + 1.5 x 1/2 = 1.5; sibling: 1.
    expect(ranked).toEqual(['next', 'alike', 'later', 'sibling']);
  });

  it('breaks ties by id, so every call ranks alike', () => {
    expect(
      rankRelated('x', {
        ...none,
        coWatch: new Map([
          ['b', 1],
          ['a', 1],
          ['c', 1],
        ]),
      }),
    ).toEqual(['a', 'b', 'c']);
    expect(rankRelated('x', none)).toEqual([]);
  });
});

/** First picks of every video of a graph whose rankings are given by hand. */
async function firstPicks(rankings: Record<string, string[]>): Promise<Record<string, string | undefined>> {
  const candidatesOf = async (id: string) => rankings[id] ?? [];
  const picks: Record<string, string | undefined> = {};
  for (const [id, ranked] of Object.entries(rankings)) picks[id] = (await withoutLoops(id, ranked, candidatesOf))[0];
  return picks;
}

describe('withoutLoops', () => {
  it('keeps the ranking when no first pick leads straight back', async () => {
    const candidatesOf = async (id: string) => (({ b: ['c', 'd'], c: ['d'] }) as Record<string, string[]>)[id] ?? [];
    // c > b: taken as it is. b < d and b lists d, but b's own first pick is c: taken too.
    expect(await withoutLoops('b', ['c', 'd'], candidatesOf)).toEqual(['c', 'd']);
    expect(await withoutLoops('d', ['b', 'c'], candidatesOf)).toEqual(['b', 'c']);
  });

  it('breaks a two-video loop: the larger id passes over the smaller one that leads back', async () => {
    // a and b watched one after the other by everyone: each ranks the other first.
    const picks = await firstPicks({ a: ['b', 'c'], b: ['a', 'c'], c: ['a'] });
    expect(picks.a).toBe('b');
    expect(picks.b).toBe('c');
    // c's candidate a is smaller, but a goes to b, not back to c.
    expect(picks.c).toBe('a');
    // With nothing else to go to, the larger id ends the road instead of going back.
    expect(await firstPicks({ m: ['n'], n: ['m'] })).toEqual({ m: 'n', n: undefined });
    // A candidate passed over for the first place still follows the pick.
    expect(await withoutLoops('n', ['m', 'p'], async (id) => (id === 'm' ? ['n'] : []))).toEqual(['p', 'm']);
  });

  it('never lets two videos be each other first pick, on many random graphs', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    let loopsInRankings = 0;
    for (let round = 0; round < 300; round++) {
      const rankings: Record<string, string[]> = {};
      for (const id of ids) {
        rankings[id] = ids.filter((o) => o !== id && random() < 0.5).sort(() => random() - 0.5);
      }
      for (const id of ids) {
        const top = rankings[id]![0];
        if (top && rankings[top]![0] === id) loopsInRankings++;
      }
      const picks = await firstPicks(rankings);
      for (const id of ids) {
        const pick = picks[id];
        if (pick) expect(picks[pick], `${id} -> ${pick} -> ${id} in ${JSON.stringify(rankings)}`).not.toBe(id);
        // A pick is always one of the video's own candidates.
        if (pick) expect(rankings[id]).toContain(pick);
      }
    }
    // The raw rankings did hold loops: the rule had work to do.
    expect(loopsInRankings).toBeGreaterThan(20);
  });
});
