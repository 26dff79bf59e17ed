import { type Caption, pageInfo, UpdateVideoFields, type VideoDetail, type VideoPage, type VideoSummary } from '@reelhouse/contract';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { newId } from '../../lib/ids.js';
import type { DefaultImages } from '../../lib/default-images.js';
import { videoPrefix } from '../../storage/storage.js';
import { searchWords } from '../search/search-words.js';
import { tell } from './video-events.js';
import { parseFields } from './video-fields.js';
import { BOTH_THUMBNAILS, scheduleTime, THUMBNAIL, thumbnailImage } from './video-options.js';
import { type VideoUploadDeps, VideoUploads } from './video-upload.service.js';
import { VideoPresenter } from './videos.presenter.js';
import { canWatch, type Viewer } from '../../db/video-access.js';
import { type ViewSource, viewerKey } from '../../lib/viewer-key.js';
import { thumbnailFromFrame } from './frame-thumbnail.js';
import type { SortField, SortType, VideoListFilter, VideoRow, VideoSummaryRow } from './videos.repository.js';
import type { SearchService } from '../search/search.service.js';
import type { CaptionHit } from '../search/search-strategy.js';

/** A viewer counts one view per video per this window. */
export const VIEW_WINDOW_MS = 60 * 60 * 1000;

export interface VideoListRequest {
  query?: string;
  userId?: string;
  /** Undefined when the caller did not choose: a search then ranks by relevance. */
  sortBy?: SortField;
  sortType: SortType;
  pageNumber: number;
  pageSize: number;
}

export interface VideosServiceDeps extends VideoUploadDeps {
  defaultImages?: DefaultImages;
  captions: VideoCaptions;
  /** Lists with search words: by title, description and channel name. */
  search: Pick<SearchService, 'videos' | 'matchingAmong'>;
}

/** What videos need of their captions: the player page's tracks, and search by what is said. */
export interface VideoCaptions {
  forVideo(videoId: string): Promise<Caption[]>;
  /** Videos whose captions hold every word, best first, a bounded few, each with its first matching cue. */
  search(words: string[], scope: { ownerId?: string; includeHidden: boolean }): Promise<CaptionHit[]>;
}

/** Videos: listing and search, the player page's read, owner edits, publishing, views; uploads through `uploads`. */
export class VideosService {
  readonly present: VideoPresenter;
  /** Making a video of an uploaded file (POST /videos/ and finished resumable uploads). */
  readonly uploads: VideoUploads;

  private readonly now: () => number;

  constructor(private readonly deps: VideosServiceDeps) {
    this.present = new VideoPresenter(deps.storage, deps.defaultImages);
    this.uploads = new VideoUploads(deps, (id, viewer) => this.get(id, viewer));
    this.now = deps.now ?? Date.now;
  }

  async list(req: VideoListRequest, viewer: Viewer | null): Promise<VideoPage> {
    const words = searchWords(req.query);
    const searching = Boolean(req.query?.trim());
    // Only punctuation: nothing that any title could contain as a word.
    if (searching && words.length === 0) return { videos: [], ...pageInfo(0, req.pageNumber, req.pageSize) };
    const filter: VideoListFilter = {
      ownerId: req.userId,
      includeHidden: Boolean(req.userId && req.userId === viewer?.id),
      words,
      byRelevance: words.length > 0 && req.sortBy === undefined,
      sortBy: req.sortBy ?? 'createdAt',
      sortType: req.sortType,
      limit: req.pageSize,
      offset: (req.pageNumber - 1) * req.pageSize,
    };
    const { rows, total, counted } = words.length ? await this.deps.search.videos(filter) : await this.deps.videos.list(filter);
    // Videos found by their captions alone come after every title, description and channel match,
    // so only when those were counted: above the count's cap they would start thousands of results
    // deep, on a page an estimated total cannot place.
    const spoken = counted ? await this.spokenOnly(filter) : [];
    const fromCaptions = spoken.slice(Math.max(0, filter.offset - total), Math.max(0, filter.offset - total) + filter.limit - rows.length);
    const captionRows = rows.length < filter.limit ? await this.deps.videos.summaries(fromCaptions.map((h) => h.videoId)) : [];
    const hits = new Map(fromCaptions.map((h) => [h.videoId, h]));
    const cards = (await this.cards([...rows, ...captionRows], viewer)).map((card) => {
      const hit = hits.get(card._id);
      return hit && !rows.some((r) => r.id === card._id) ? { ...card, captionMatch: { start: hit.startMs / 1000, text: hit.text } } : card;
    });
    return { videos: cards, ...pageInfo(total + spoken.length, req.pageNumber, req.pageSize) };
  }

  /** Videos a search finds only by what is said in them, not by their title, description or channel. */
  private async spokenOnly(filter: VideoListFilter): Promise<CaptionHit[]> {
    if (!filter.words.length) return [];
    const hits = await this.deps.captions.search(filter.words, { ownerId: filter.ownerId, includeHidden: filter.includeHidden });
    const matchedOtherwise = await this.deps.search.matchingAmong(
      filter,
      hits.map((h) => h.videoId),
    );
    return hits.filter((h) => !matchedOtherwise.has(h.videoId));
  }

  /**
   * Video cards, with where the signed-in viewer stopped in each (one query for the whole list),
   * so cards can show how much of each was watched.
   */
  async cards(rows: VideoSummaryRow[], viewer: Viewer | null): Promise<VideoSummary[]> {
    const cards = rows.map((r) => this.present.summary(r));
    return viewer ? this.withPositions(cards, viewer) : cards;
  }

  /** Cards as every signed-out visitor sees them, with where this viewer stopped in each: one query. */
  async withPositions<C extends VideoSummary>(cards: C[], viewer: Viewer): Promise<C[]> {
    if (!cards.length) return cards;
    const positions = await this.deps.videos.watchPositions(
      viewer.id,
      cards.map((c) => c._id),
    );
    return cards.map((c) => ({ ...c, watchPosition: positions.get(c._id) ?? null }));
  }

  /**
   * A list page as signed-out visitors see it, for this viewer: the same cards with their watch
   * positions. Null for a channel's list opened by its owner, who sees their hidden videos too.
   */
  async pageForViewer<P extends { videos: VideoSummary[] }>(page: P, viewer: Viewer, channelId: string | undefined): Promise<P | null> {
    if (channelId === viewer.id) return null;
    return { ...page, videos: await this.withPositions(page.videos, viewer) };
  }

  /** The player page's video; a video the caller may not see is missing to them. */
  async get(id: string, viewer: Viewer | null): Promise<VideoDetail> {
    const row = await this.deps.videos.findDetail(id);
    if (!row || !canWatch(row, viewer)) throw notFound('Video');
    const [own, captions] = await Promise.all([
      viewer ? this.viewerFields(viewer, id, row.owner_id) : { isLiked: false, isSubscribed: false, watchPosition: null },
      this.deps.captions.forVideo(id),
    ]);
    return this.present.detail(row, own, captions);
  }

  /**
   * The player page as signed-out visitors see it, for this viewer: whether they like the video and
   * follow its channel, and where they stopped. Every viewer may open what signed-out visitors may,
   * and a video they may open shows them no more than that (a takedown notice only on a hidden one).
   */
  async detailForViewer(video: VideoDetail, viewer: Viewer): Promise<VideoDetail> {
    const { isLiked, isSubscribed, watchPosition } = await this.viewerFields(viewer, video._id, video.owner._id);
    return { ...video, isLiked, owner: { ...video.owner, isSubscribed }, watchPosition };
  }

  /** One query; nobody follows their own channel. */
  private async viewerFields(viewer: Viewer, videoId: string, ownerId: string) {
    const own = await this.deps.videos.viewerFields(viewer.id, videoId, ownerId);
    return { ...own, isSubscribed: own.isSubscribed && viewer.id !== ownerId };
  }

  /** The row of a video the caller may see, or 404. For other modules acting on a video. */
  async visibleRow(id: string, viewer: Viewer | null): Promise<VideoRow> {
    const row = await this.deps.videos.findById(id);
    if (!row || !canWatch(row, viewer)) throw notFound('Video');
    return row;
  }

  /**
   * Owner edits: title, description, the thumbnail (an uploaded image, or a frame of the video cut
   * at thumbnailTime), the visibility and the publishing schedule. Blank fields count as not given.
   * A visibility cancels any schedule; a publishAt makes the video private until then.
   */
  async update(id: string, user: Viewer, rawFields: Record<string, string>, thumbnailFile: UploadedFile | undefined): Promise<VideoDetail> {
    const row = await this.ownRow(id, user);
    const given = Object.fromEntries(Object.entries(rawFields).filter(([, v]) => v.trim() !== ''));
    if (Object.keys(given).length === 0 && !thumbnailFile) {
      throw badRequest('No update value provided. Please provide at least one value.');
    }
    const fields = parseFields(UpdateVideoFields, given, [
      ...(thumbnailFile && given.thumbnailTime !== undefined ? [{ path: 'thumbnailTime', message: BOTH_THUMBNAILS }] : []),
    ]);
    const publishAt = scheduleTime(fields, this.now());
    let thumbnailKey: string | undefined;
    if (thumbnailFile || fields.thumbnailTime !== undefined) {
      const webp = thumbnailFile ? await thumbnailImage(thumbnailFile) : await thumbnailFromFrame(row, fields.thumbnailTime!, this.deps, THUMBNAIL);
      thumbnailKey = `${videoPrefix(id)}thumbnail-${newId()}.webp`;
      await this.deps.storage.put(thumbnailKey, webp, 'image/webp');
    }
    try {
      await this.deps.videos.update(id, {
        ...(fields.title !== undefined ? { title: fields.title } : {}),
        ...(fields.description !== undefined ? { description: fields.description } : {}),
        ...(thumbnailKey ? { thumbnail_key: thumbnailKey } : {}),
        updated_at: Date.now(),
      });
      if (publishAt !== undefined) await this.schedule(id, row.owner_id, publishAt);
      else if (fields.visibility !== undefined) await this.deps.videos.setVisibility(id, row.owner_id, fields.visibility, null);
    } catch (err) {
      if (thumbnailKey) await this.deps.storage.delete(thumbnailKey).catch(() => undefined);
      throw err;
    }
    await this.deps.changes.changed();
    // The old file goes only once the row points at the new one.
    if (thumbnailKey && row.thumbnail_key !== thumbnailKey) await this.deps.storage.delete(row.thumbnail_key);
    const events = this.deps.events;
    if (events) {
      if (fields.visibility === 'public' && row.visibility !== 'public') await tell(this.deps.logger, 'videoListed', () => events.videoListed(id));
      await tell(this.deps.logger, 'videoChanged', () => events.videoChanged(id));
    }
    return this.get(id, user);
  }

  /**
   * Private with the schedule on the row, then the durable job. If the job cannot be queued the
   * schedule is taken back off the row (the video stays private), so no row promises a publication
   * that nothing will make.
   */
  private async schedule(id: string, ownerId: string, publishAt: number): Promise<void> {
    await this.deps.videos.setVisibility(id, ownerId, 'private', publishAt);
    try {
      await this.deps.publishing.schedule(id, publishAt);
    } catch (err) {
      await this.deps.videos.setVisibility(id, ownerId, 'private', null);
      throw err;
    }
  }

  /** Deletes the row with all that points at it, then every file under the video's prefix. */
  async remove(id: string, user: Viewer): Promise<void> {
    const row = await this.ownRow(id, user);
    await this.deps.videos.deleteWithCascade(id, row.owner_id);
    await this.deps.changes.changed();
    await this.deps.storage.deletePrefix(videoPrefix(id));
    const events = this.deps.events;
    if (events) await tell(this.deps.logger, 'videoChanged', () => events.videoChanged(id));
  }

  /**
   * SPEC.md's publish toggle: a published video (public or unlisted) becomes private, a private one
   * public. isPublished is false only for private videos.
   */
  async togglePublish(id: string, user: Viewer): Promise<VideoDetail> {
    const row = await this.ownRow(id, user);
    // Either way the owner has decided now: a pending schedule is cancelled.
    await this.deps.videos.setVisibility(id, row.owner_id, row.visibility === 'private' ? 'public' : 'private', null);
    await this.deps.changes.changed();
    const events = this.deps.events;
    if (events) {
      await tell(this.deps.logger, 'videoListed', () => events.videoListed(id));
      await tell(this.deps.logger, 'videoChanged', () => events.videoChanged(id));
    }
    return this.get(id, user);
  }

  /** Counts at most one view per viewer per video per hour; later calls answer the count unchanged. */
  async countView(id: string, viewer: Viewer | null, source: ViewSource): Promise<{ views: number; counted: boolean }> {
    await this.visibleRow(id, viewer);
    return this.deps.videos.countView(id, viewerKey(source), Date.now(), VIEW_WINDOW_MS);
  }

  private async ownRow(id: string, user: Viewer): Promise<VideoRow> {
    const row = await this.deps.videos.findById(id);
    if (!row) throw notFound('Video');
    if (row.owner_id !== user.id) {
      // Someone else's hidden video stays missing to them, as everywhere else.
      if (!canWatch(row, user)) throw notFound('Video');
      throw forbidden('Only the owner of this video can change it');
    }
    return row;
  }
}
