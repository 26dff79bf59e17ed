import fsp from 'node:fs/promises';
import { type Caption, CaptionUploadFields, MAX_CAPTION_CUES, MAX_CAPTION_LABEL_LENGTH } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { conflict, forbidden, notFound, payloadTooLarge, validationFailed } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { newId } from '../../lib/ids.js';
import { type Storage, videoPrefix } from '../../storage/storage.js';
import { canWatch, isAdmin, type Viewer } from '../../db/video-access.js';
import { parseFields } from '../videos/video-fields.js';
import type { VideosRepository } from '../videos/videos.repository.js';
import type { SearchService } from '../search/search.service.js';
import type { CaptionHit, SearchScope } from '../search/search-strategy.js';
import { CaptionFileError, parseCaptionFile, writeWebVtt } from './caption-file.js';
import { presentCaption } from './captions.presenter.js';
import type { CaptionsRepository } from './captions.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';

export interface CaptionsServiceDeps {
  captions: CaptionsRepository;
  search: Pick<SearchService, 'captions'>;
  videos: Pick<VideosRepository, 'findById'>;
  storage: Storage;
  logger: Logger;
  /** Told after a track is added or removed: the video page lists them. */
  changes: PublicChanges;
}

/** Captions of a video: the owner (or an admin) adds one per language, replaces and removes them. */
export class CaptionsService {
  constructor(private readonly deps: CaptionsServiceDeps) {}

  search(words: string[], scope: SearchScope): Promise<CaptionHit[]> {
    return this.deps.search.captions(words, scope);
  }

  async forVideo(videoId: string): Promise<Caption[]> {
    const rows = await this.deps.captions.forVideo(videoId);
    return rows.map((r) => presentCaption(r, this.deps.storage));
  }

  /**
   * Checks the fields and the file (WebVTT or SRT, cues in order within the video), writes the
   * cleaned WebVTT under the video's prefix and then the rows. A caption already there in the same
   * language is replaced: its row in the same transaction, its file once that has committed. A
   * refused upload stores nothing; the caller removes the temporary file.
   */
  async upload(videoId: string, user: Viewer, rawFields: Record<string, string>, file: UploadedFile | undefined): Promise<Caption> {
    const video = await this.editableVideo(videoId, user);
    const fields = parseFields(CaptionUploadFields, rawFields, file ? [] : [{ path: 'file', message: 'file is required (a WebVTT or SRT caption file)' }]);
    let cues;
    try {
      ({ cues } = parseCaptionFile(await fsp.readFile(file!.path), { maxCues: MAX_CAPTION_CUES, durationSeconds: Number(video.duration) }));
    } catch (err) {
      if (!(err instanceof CaptionFileError)) throw err;
      if (err.tooLarge) throw payloadTooLarge(err.message);
      throw validationFailed([{ path: 'file', message: err.message }]);
    }
    const id = newId();
    const key = `${videoPrefix(videoId)}captions/${id}.vtt`;
    await this.deps.storage.put(key, Buffer.from(writeWebVtt(cues), 'utf8'), 'text/vtt; charset=utf-8');
    const row = {
      id,
      video_id: videoId,
      language: fields.language,
      label: fields.label || languageName(fields.language),
      storage_key: key,
      cue_count: cues.length,
      created_at: Date.now(),
    };
    let replacedKey: string | null;
    try {
      replacedKey = await this.deps.captions.replace(
        row,
        cues.map((c) => ({ startMs: Math.round(c.start * 1000), text: c.plain })),
      );
    } catch (err) {
      await this.deps.storage.delete(key).catch((e) => this.deps.logger.error({ err: e, videoId }, 'removing a refused caption file failed'));
      // The video was deleted meanwhile, or another upload in this language won the race.
      if (!(await this.deps.captions.videoExists(videoId))) throw notFound('Video');
      if (isUniqueViolation(err)) throw conflict(`A caption in ${fields.language} was added at the same moment; try again`);
      throw err;
    }
    await this.deps.changes.changed();
    if (replacedKey)
      await this.deps.storage.delete(replacedKey).catch((e) => this.deps.logger.error({ err: e, videoId }, 'removing a replaced caption file failed'));
    return presentCaption(row, this.deps.storage);
  }

  async remove(videoId: string, captionId: string, user: Viewer): Promise<void> {
    await this.editableVideo(videoId, user);
    const caption = await this.deps.captions.find(videoId, captionId);
    if (!caption) throw notFound('Caption');
    await this.deps.captions.delete(caption.id);
    await this.deps.changes.changed();
    await this.deps.storage.delete(caption.storage_key);
  }

  /** The video, if this user may change its captions: its owner, or an admin. */
  private async editableVideo(videoId: string, user: Viewer) {
    const video = await this.deps.videos.findById(videoId);
    // A video the caller may not even see is missing to them, as everywhere else.
    if (!video || !canWatch(video, user)) throw notFound('Video');
    if (video.owner_id !== user.id && !isAdmin(user)) throw forbidden('Only the owner of this video can change its captions');
    return video;
  }
}

/** "English", "Brazilian Portuguese": the menu's label when the uploader gave none. */
export function languageName(language: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language);
  } catch {
    name = undefined;
  }
  return (name || language).slice(0, MAX_CAPTION_LABEL_LENGTH);
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
