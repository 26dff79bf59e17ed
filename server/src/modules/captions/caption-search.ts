import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { fts5Match, tsPrefixQuery } from '../videos/video-search.js';

/** A video whose captions say the words searched for, with the first cue (in the video) that does. */
export interface CaptionHit {
  videoId: string;
  startMs: number;
  text: string;
}

export interface CaptionSearchScope {
  /** Only this owner's videos. */
  ownerId?: string;
  /** Every state of the owner's own videos; else listed ones only. */
  includeHidden: boolean;
}

/**
 * How many matching cues one search looks at, and how many videos it answers at most. A common word
 * may be in millions of cues: the search takes the first few hundred the index gives (the newest on
 * SQLite) and never ranks or counts them all.
 */
export const CUES_PER_SEARCH = 400;
export const VIDEOS_PER_SEARCH = 50;

export class CaptionSearch {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Videos whose cues hold every word (as prefixes, like the title search), those with the most
   * matching cues first; for each, its earliest matching cue.
   */
  async search(words: string[], scope: CaptionSearchScope): Promise<CaptionHit[]> {
    if (!words.length) return [];
    const matched = this.dialect === 'sqlite'
      ? sql<{ id: number }>`(SELECT rowid AS id FROM caption_cues_fts WHERE caption_cues_fts MATCH ${fts5Match(words)} ORDER BY rowid DESC LIMIT ${CUES_PER_SEARCH})`
      : sql<{ id: number }>`(SELECT id FROM caption_cues WHERE search_vector @@ to_tsquery('simple', ${tsPrefixQuery(words)}) LIMIT ${CUES_PER_SEARCH})`;
    let q = this.db
      .selectFrom(matched.as('matched'))
      .innerJoin('caption_cues', 'caption_cues.id', 'matched.id')
      .innerJoin('videos', 'videos.id', 'caption_cues.video_id')
      .select(['caption_cues.video_id', 'caption_cues.start_ms', 'caption_cues.text']);
    if (scope.ownerId) q = q.where('videos.owner_id', '=', scope.ownerId);
    if (!scope.includeHidden) q = q.where(listedVideo());
    const cues = await q.execute();

    const byVideo = new Map<string, { hit: CaptionHit; count: number; order: number }>();
    for (const cue of cues) {
      const startMs = Number(cue.start_ms);
      const seen = byVideo.get(cue.video_id);
      if (!seen) byVideo.set(cue.video_id, { hit: { videoId: cue.video_id, startMs, text: cue.text }, count: 1, order: byVideo.size });
      else {
        seen.count++;
        if (startMs < seen.hit.startMs) seen.hit = { videoId: cue.video_id, startMs, text: cue.text };
      }
    }
    return [...byVideo.values()]
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .slice(0, VIDEOS_PER_SEARCH)
      .map((v) => v.hit);
  }
}
