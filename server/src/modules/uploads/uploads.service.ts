import fsp from 'node:fs/promises';
import type { UploadQuota, VideoDetail } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { badRequest, conflict, notFound, payloadTooLarge } from '../../http/errors.js';
import { formatBytes, type UploadedFile } from '../../http/multipart.js';
import { newId } from '../../lib/ids.js';
import type { Viewer } from '../../db/video-access.js';
import type { VideosService } from '../videos/videos.service.js';
import type { InstanceService } from '../instance/instance.service.js';
import type { StorageQuota } from '../videos/storage-quota.js';
import type { UploadStore } from './upload-store.js';
import type { UploadRow, UploadsRepository } from './uploads.repository.js';

export interface UploadsServiceDeps {
  uploads: UploadsRepository;
  store: UploadStore;
  quota: StorageQuota;
  videos: VideosService;
  logger: Logger;
  tmpDir: string;
  /** The site's limits (largest and longest video), as POST /videos/ applies them. */
  instance: InstanceService;
  expiryMs: number;
}

/**
 * The rules around resumable uploads: who may start one and how large (checked before a byte
 * arrives), whose it is, and how a finished one becomes a video through the same checks and
 * pipeline as POST /videos/. The tus protocol itself is the tus server's business.
 */
export class UploadsService {
  constructor(private readonly deps: UploadsServiceDeps) {}

  /** Checks a new upload's announced length against the size limit and the owner's quotas. */
  async admit(owner: Viewer, uploadLength: string | undefined, deferLength: string | undefined): Promise<{ id: string; size: number }> {
    if (deferLength !== undefined && uploadLength === undefined) {
      throw badRequest('Upload-Length is required: uploads must say their size when they start');
    }
    if (uploadLength === undefined || !/^\d{1,16}$/.test(uploadLength)) {
      throw badRequest('Upload-Length must be the size of the file in bytes');
    }
    const size = Number(uploadLength);
    if (size === 0) throw badRequest('The file is empty');
    const { maxVideoBytes } = await this.deps.instance.settings();
    if (size > maxVideoBytes) throw payloadTooLarge(`videoFile is larger than ${formatBytes(maxVideoBytes)}`);
    await this.deps.quota.assertRoom(owner.id, size);
    return { id: newId(), size };
  }

  /**
   * The largest upload admit lets through now (the site's setting, at most MAX_VIDEO_BYTES). Asked
   * at an upload's own URL, that upload must exist, whoever's it is: its unguessable id is all the
   * caller learns anything about, and only that it exists.
   */
  async maxUploadBytes(uploadId?: string): Promise<number> {
    if (uploadId !== undefined && !(await this.deps.uploads.find(uploadId))) throw notFound('Upload');
    return (await this.deps.instance.settings()).maxVideoBytes;
  }

  /** Records an upload the tus store is about to create. */
  async record(id: string, ownerId: string, size: number, filename: string): Promise<void> {
    const now = Date.now();
    await this.deps.uploads.insert({
      id,
      owner_id: ownerId,
      size,
      filename: filename.slice(0, 255),
      claimed_at: null,
      created_at: now,
      expires_at: now + this.deps.expiryMs,
    });
  }

  /** Drops an upload the tus store refused to create (its row, and any bytes it left). */
  async forget(id: string): Promise<void> {
    await this.discard(id).catch((err) => this.deps.logger.warn({ err, uploadId: id }, 'removing a refused upload failed'));
  }

  /** The caller's own upload; anyone else's is missing to them. */
  async own(id: string, user: Viewer): Promise<UploadRow> {
    const row = await this.deps.uploads.find(id);
    if (!row || row.owner_id !== user.id) throw notFound('Upload');
    return row;
  }

  /** The row of an upload that may still receive bytes or be terminated. */
  async ownOpen(id: string, user: Viewer): Promise<UploadRow> {
    const row = await this.own(id, user);
    if (row.claimed_at !== null) throw conflict('This upload is being turned into a video');
    return row;
  }

  /** Terminates an upload: its bytes and its row. */
  async terminate(id: string, user: Viewer): Promise<void> {
    await this.ownOpen(id, user);
    await this.discard(id);
  }

  async quota(user: Viewer): Promise<UploadQuota> {
    const [u, settings] = await Promise.all([this.deps.quota.usage(user.id), this.deps.instance.settings()]);
    return {
      quotaBytes: u.totalBytes,
      dailyQuotaBytes: u.dailyBytes,
      usedBytes: u.usedBytes,
      usedDailyBytes: u.usedDailyBytes,
      maxUploadBytes: settings.maxVideoBytes,
      uploadExpiryHours: this.deps.expiryMs / 3600_000,
    };
  }

  /**
   * Turns a finished upload into a video with POST /videos/'s rules and pipeline. Bytes that are
   * not an mp4 video can never become one, so they go at once rather than holding quota until they
   * expire; any other refusal (a bad title, a bad thumbnail) keeps the upload for another try.
   */
  async createVideo(id: string, user: Viewer, fields: Record<string, string>, thumbnail: UploadedFile | undefined): Promise<VideoDetail> {
    const row = await this.own(id, user);
    const state = await this.deps.store.state(id);
    if (!state) {
      await this.deps.uploads.delete(id);
      throw notFound('Upload');
    }
    if (!state.complete) throw conflict(`The upload has ${state.offset} of ${state.size} bytes; send the rest first`);
    if (!(await this.deps.uploads.claim(id, Date.now()))) throw conflict('This upload is being turned into a video');
    let copy: { path: string; owned: boolean } | null = null;
    let video: VideoDetail;
    try {
      copy = await this.deps.store.localCopy(id, this.deps.tmpDir);
      const videoFile: UploadedFile = { path: copy.path, filename: row.filename || 'upload.mp4', mimetype: 'video/mp4', size: state.size };
      try {
        await this.deps.videos.uploads.checkVideo(videoFile);
      } catch (err) {
        await this.discard(id);
        throw err;
      }
      const { maxVideoDurationSeconds } = await this.deps.instance.settings();
      video = await this.deps.videos.uploads.create(
        user,
        fields,
        { videoFile, thumbnail },
        { maxDurationSeconds: maxVideoDurationSeconds },
        { quotaHeld: true },
      );
    } catch (err) {
      await this.deps.uploads.unclaim(id).catch(() => undefined);
      throw err;
    } finally {
      if (copy?.owned) await fsp.rm(copy.path, { force: true });
    }
    // The video exists; an upload left behind stays claimed and goes when it expires.
    await this.discard(id).catch((err) => this.deps.logger.warn({ err, uploadId: id }, 'removing a used upload failed'));
    return video;
  }

  /** Removes uploads past their expiry (bytes first, then the row); for housekeeping. */
  async removeExpired(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = await this.deps.uploads.expired(now, 100);
      for (const row of rows) {
        try {
          await this.discard(row.id);
          removed++;
        } catch (err) {
          this.deps.logger.warn({ err, uploadId: row.id }, 'removing an expired upload failed');
          return removed;
        }
      }
      if (rows.length < 100) return removed;
    }
  }

  private async discard(id: string): Promise<void> {
    await this.deps.store.remove(id);
    await this.deps.uploads.delete(id);
  }
}
