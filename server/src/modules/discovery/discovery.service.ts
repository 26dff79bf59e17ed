import { pageInfo, type RelatedVideos, type TrendingQuery, type VideoPage } from '@reelhouse/contract';
import type { Viewer } from '../videos/video-access.js';
import { topicWords } from '../videos/video-search.js';
import type { VideosService } from '../videos/videos.service.js';
import type { DiscoveryRepository } from './discovery.repository.js';
import { rankRelated, withoutLoops } from './related-ranking.js';

/** Up next and trending: what to watch after a video, and what many people watch now. */
export class DiscoveryService {
  constructor(private readonly deps: { discovery: DiscoveryRepository; videos: VideosService }) {}

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

  /** A video's ranked candidates, the same for every viewer (the no-loop rule relies on that). */
  private async candidates(videoId: string): Promise<string[]> {
    const video = await this.deps.discovery.cardRows([videoId]).then((r) => r[0]);
    const [coWatch, sameChannel, similar] = await Promise.all([
      this.deps.discovery.coWatched(videoId),
      video ? this.deps.discovery.sameChannel(videoId, video.owner_id) : Promise.resolve([]),
      video ? this.deps.discovery.similar(videoId, topicWords(`${video.title} ${video.description}`)) : Promise.resolve([]),
    ]);
    return rankRelated(videoId, { coWatch, sameChannel, similar });
  }

  async trending(q: TrendingQuery, viewer: Viewer | null): Promise<VideoPage> {
    const { rows, total } = await this.deps.discovery.trending(Date.now(), { limit: q.pageSize, offset: (q.pageNumber - 1) * q.pageSize });
    return { videos: await this.deps.videos.cards(rows, viewer), ...pageInfo(total, q.pageNumber, q.pageSize) };
  }
}
