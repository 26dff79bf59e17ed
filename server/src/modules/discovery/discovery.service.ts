import { pageInfo, type RelatedVideos, type TrendingQuery, type VideoPage, type VideoSummary } from '@reelhouse/contract';
import type { Viewer } from '../../db/video-access.js';
import type { SearchService } from '../search/search.service.js';
import { topicWords } from '../search/search-words.js';
import type { VideosService } from '../videos/videos.service.js';
import type { DiscoveryRepository } from './discovery.repository.js';
import { rankRelated, withoutLoops } from './related-ranking.js';
import { commonWords, fewMatches, rankSimilar, SIMILAR_BLOCK, SIMILAR_WINDOW } from './similar-ranking.js';
import type { TrendingRepository } from './trending.repository.js';

/** How many similar videos take part in the blend. */
const SIMILAR_CANDIDATES = 20;

/**
 * How long a video's kept ranking is used before it is made again. What viewers watch next and
 * what gets uploaded move a ranking slowly, so one some minutes old serves as well as a fresh one,
 * and the no-loop rule only needs every caller to see the same ranking meanwhile, which the one
 * shared row gives. Ten minutes keeps the cost to about one ranking per video per window; a video
 * that stops being listed leaves every kept ranking at once regardless (see `candidates`).
 */
export const RANKING_FRESH_MS = 10 * 60_000;

/** Up next and trending: what to watch after a video, and what many people watch now. */
export class DiscoveryService {
  constructor(
    private readonly deps: {
      discovery: DiscoveryRepository;
      trending: TrendingRepository;
      videos: VideosService;
      search: Pick<SearchService, 'newestMatchesOfAny'>;
    },
  ) {}

  /**
   * Rankings this process is making now, by video: requests that find the same video's ranking
   * missing or stale at once wait for one ranking instead of each making their own. Not a cache:
   * an entry leaves as soon as its ranking is kept in the database.
   */
  private readonly making = new Map<string, Promise<string[]>>();
  /** Rankings this process has kept so far: a read that began before one was kept reads again. */
  private rankingsKept = 0;

  /**
   * Up next for a video the viewer may open (404 otherwise): co-watch, similar words and the same
   * channel blended, listed videos only, never the video itself, and never a first pick that leads
   * straight back (see related-ranking.ts).
   */
  async related(videoId: string, viewer: Viewer | null, limit: number): Promise<RelatedVideos> {
    await this.deps.videos.visibleRow(videoId, viewer);
    const ranked = await this.candidates(videoId);
    const ids = (await withoutLoops(videoId, ranked, (id) => this.candidates(id))).slice(0, limit);
    const rows = new Map((await this.deps.discovery.cardRows(ids)).map((r) => [r.id, r]));
    const ordered = ids.map((id) => rows.get(id)).filter((r) => r !== undefined);
    return { videos: await this.deps.videos.cards(ordered, viewer) };
  }

  /**
   * A video's ranked candidates, the same for every viewer and every process (the no-loop rule
   * relies on that): the ranking kept in the database while it is fresh, without the videos no
   * longer listed (the same for everyone at any moment), else ranked afresh and kept.
   */
  private async candidates(videoId: string): Promise<string[]> {
    const now = Date.now();
    const keptBefore = this.rankingsKept;
    const kept = await this.deps.discovery.keptRanking(videoId);
    if (kept && now - kept.madeAt < RANKING_FRESH_MS) {
      const listed = await this.deps.discovery.listedOf(kept.ranked);
      return kept.ranked.filter((id) => listed.has(id));
    }
    // Reads may finish out of order (SQLite's read workers, a pool): one that missed a ranking kept
    // meanwhile, whose making is already over, would otherwise rank the video again.
    if (this.rankingsKept !== keptBefore && !this.making.has(videoId)) return this.candidates(videoId);
    let making = this.making.get(videoId);
    if (!making) {
      making = this.rank(videoId)
        .then(async (ranked) => {
          await this.deps.discovery.keepRanking(videoId, ranked, now);
          this.rankingsKept++;
          return ranked;
        })
        .finally(() => this.making.delete(videoId));
      this.making.set(videoId, making);
    }
    return making;
  }

  /** A video's candidates ranked from its three signals (related-ranking.ts). */
  private async rank(videoId: string): Promise<string[]> {
    const video = await this.deps.discovery.cardRows([videoId]).then((r) => r[0]);
    const [coWatch, sameChannel, similar] = await Promise.all([
      this.deps.discovery.coWatched(videoId),
      video ? this.deps.discovery.sameChannel(videoId, video.owner_id) : Promise.resolve([]),
      video ? this.similar(videoId, topicWords(`${video.title} ${video.description}`)) : Promise.resolve([]),
    ]);
    return rankRelated(videoId, { coWatch, sameChannel, similar });
  }

  /**
   * Videos sharing the video's words, best first, from a bounded block of the newest matches (see
   * similar-ranking.ts). Words found too common in that block are left out and the block is read
   * again without them, so that they neither crowd out the telling words nor count towards a match.
   */
  private async similar(videoId: string, words: string[]): Promise<string[]> {
    let block = await this.deps.search.newestMatchesOfAny(videoId, words, SIMILAR_BLOCK);
    const common = new Set(commonWords(words, block));
    const telling = words.filter((w) => !common.has(w));
    if (common.size && telling.length) {
      block = await this.deps.search.newestMatchesOfAny(videoId, telling, { ...SIMILAR_BLOCK, fewMatches: fewMatches(telling, block, SIMILAR_WINDOW) });
    }
    return rankSimilar(telling.length ? telling : words, block, SIMILAR_CANDIDATES);
  }

  /** A page of the trending list as last rebuilt (trending-jobs.ts), without what stopped being listed since. */
  /**
   * Up next or trending as signed-out visitors see them, for this viewer: the same cards (listed
   * videos only, ranked the same for everyone) with their watch positions.
   */
  async pageForViewer<P extends { videos: VideoSummary[] }>(page: P, viewer: Viewer): Promise<P> {
    return { ...page, videos: await this.deps.videos.withPositions(page.videos, viewer) };
  }

  async trending(q: TrendingQuery, viewer: Viewer | null): Promise<VideoPage> {
    const { ids, total } = await this.deps.trending.page({ limit: q.pageSize, offset: (q.pageNumber - 1) * q.pageSize });
    const byId = new Map((await this.deps.discovery.cardRows(ids)).map((r) => [r.id, r]));
    const rows = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
    return { videos: await this.deps.videos.cards(rows, viewer), ...pageInfo(total, q.pageNumber, q.pageSize) };
  }
}
