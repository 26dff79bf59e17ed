/**
 * Up next, as plain functions over ids: how the three signals blend into one ranking, and the rule
 * that keeps two videos from only pointing at each other. See docs/decisions/0026-up-next-and-trending.md.
 */

/** What is known about the videos that could follow one video. */
export interface RelatedSignals {
  /** Video id to co-watch weight (how many of this video's viewers watched it next, weighted by step). */
  coWatch: ReadonlyMap<string, number>;
  /** The same channel's videos, newest first. */
  sameChannel: readonly string[];
  /** Videos with similar words in title, description or owner, best match first. */
  similar: readonly string[];
}

/** How much each signal counts: what people actually watched next weighs most. */
export const RELATED_WEIGHTS = { coWatch: 3, similar: 1.5, sameChannel: 1 } as const;

/** 1 for the first of a list, falling evenly towards 0 for the last. */
const byPlace = (list: readonly string[]) => new Map(list.map((id, i) => [id, 1 - i / list.length]));

/**
 * Every candidate ranked by its blended score:
 *   3 x coWatch / (largest coWatch) + 1.5 x place in similar + 1 x place in same channel,
 * where a place is 1 for the first of a list and falls evenly to 1/n for the last. Ties by id, so
 * the order is the same every time. The video itself is never a candidate.
 */
export function rankRelated(self: string, signals: RelatedSignals): string[] {
  const score = new Map<string, number>();
  const add = (id: string, s: number) => {
    if (id !== self) score.set(id, (score.get(id) ?? 0) + s);
  };
  const coWatch = [...signals.coWatch].filter(([id]) => id !== self);
  const top = Math.max(0, ...coWatch.map(([, w]) => w));
  if (top > 0) for (const [id, w] of coWatch) add(id, RELATED_WEIGHTS.coWatch * (w / top));
  for (const [id, p] of byPlace(signals.similar.filter((id) => id !== self))) add(id, RELATED_WEIGHTS.similar * p);
  for (const [id, p] of byPlace(signals.sameChannel.filter((id) => id !== self))) add(id, RELATED_WEIGHTS.sameChannel * p);
  return [...score.entries()].sort(([a, sa], [b, sb]) => sb - sa || (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);
}

/**
 * The no-loop rule. X's first pick is the best-ranked candidate Y that does not lead straight back:
 * a candidate with a larger id than X (string order) is always taken; one with a smaller id is
 * passed over when its own first pick is X. Why no two videos are each other's first pick: say X
 * picks Y and Y picks X, and Y < X (one of them is smaller). X took Y although Y < X, so Y's first
 * pick is not X. The first pick of a smaller-id candidate is found by the same rule, which only ever
 * looks at still smaller ids, so it ends. Candidates passed over follow the pick. When every
 * candidate is passed over the list is empty: the end of the road rather than a ping-pong.
 *
 * `candidatesOf` gives a video's ranking (rankRelated over its signals), the same for every caller.
 */
export async function withoutLoops(self: string, ranked: readonly string[], candidatesOf: (id: string) => Promise<readonly string[]>): Promise<string[]> {
  const picks = new Map<string, Promise<string | null>>();
  const firstPick = (id: string, list?: readonly string[]): Promise<string | null> => {
    let pick = picks.get(id);
    if (!pick) {
      pick = (async () => {
        for (const candidate of list ?? (await candidatesOf(id))) {
          if (candidate > id || (await firstPick(candidate)) !== id) return candidate;
        }
        return null;
      })();
      picks.set(id, pick);
    }
    return pick;
  };
  const first = await firstPick(self, ranked);
  if (first === null) return [];
  // Only the first place is at stake: the ones passed over for it follow it, in their order.
  return [first, ...ranked.filter((id) => id !== first)];
}
