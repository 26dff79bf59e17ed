import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { makeClip } from '../../media/fixtures.js';
import { parseMediaPlaylist } from '../../media/hls.js';
import { MediaTools } from '../../media/media-tools.js';
import { isBrowserPlayable, probeMedia } from '../../media/probe.js';
import { cacheControlFor } from '../../storage/cache-control.js';
import { LocalStorage } from '../../storage/local-storage.js';
import type { JobContext } from '../../jobs/job-types.js';
import { VideoSteps } from './video-steps.js';
import { videoMediaKeys } from './video-media.keys.js';
import { insertOwner, insertProcessingVideo } from '../../../test/support/pipeline-steps.js';

const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
const ffprobePath = process.env.FFPROBE_PATH ?? 'ffprobe';
const tools = new MediaTools({ ffmpegPath, ffprobePath });
const logger = pino({ level: 'silent' });

let dir: string;
let handle: DbHandle;
let ownerId: string;
const clips: Record<string, string> = {};

const context = (): JobContext => ({ attempt: 1, signal: new AbortController().signal, progress: async () => {} });
const video = (id: string) => handle.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function ingest(storage: LocalStorage, clip: string): Promise<string> {
  const id = randomUUID();
  const keys = videoMediaKeys(id);
  await storage.putFile(keys.source, clip);
  await insertProcessingVideo(handle.db, { id, ownerId, sourceKey: keys.source, thumbnailKey: `${keys.root}thumbnail.webp`, title: 'Phone clip' });
  return id;
}

/** What the row and the stored files looked like each time the live playlist was published. */
interface Snapshot {
  segments: number;
  ended: boolean;
  status: string;
  videoKey: string | null;
  hlsKey: string | null;
  missing: string[];
}

/** Local storage that, at every publication of a live playlist, checks what it names is already stored. */
class WatchedStorage extends LocalStorage {
  snapshots: Snapshot[] = [];
  override async put(key: string, body: Readable | Buffer, contentType?: string) {
    const stored = await super.put(key, body, contentType);
    if (key.endsWith('/live/index.m3u8') && Buffer.isBuffer(body)) {
      const text = body.toString('utf8');
      const playlist = parseMediaPlaylist(text);
      const base = key.slice(0, key.lastIndexOf('/') + 1);
      const names = [playlist.initUri!, ...playlist.segments.map((s) => s.uri)];
      const missing: string[] = [];
      for (const n of names) if (!(await this.stat(base + n))) missing.push(n);
      const row = await video(key.split('/')[1]!);
      expect(text).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
      expect(text).toContain('#EXT-X-START:TIME-OFFSET=0');
      this.snapshots.push({
        segments: playlist.segments.length,
        ended: playlist.ended,
        status: row.status,
        videoKey: row.video_key,
        hlsKey: row.hls_key,
        missing,
      });
    }
    return stored;
  }
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'live-rendition-'));
  handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'db.sqlite') } });
  ownerId = await insertOwner(handle.db);
  // 20 s, so the rendition takes several polls to write even on a quick machine.
  clips.hevc = await makeClip(ffmpegPath, path.join(dir, 'hevc.mp4'), { width: 640, height: 360, seconds: 20, fps: 30, videoCodec: 'libx265' });
  clips.hevc10 = await makeClip(ffmpegPath, path.join(dir, 'hevc10.mp4'), {
    width: 640,
    height: 360,
    seconds: 4,
    videoCodec: 'libx265',
    pixFmt: 'yuv420p10le',
    audioCodec: 'libmp3lame',
  });
}, 300_000);

afterAll(async () => {
  await handle?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('live rendition of a source browsers cannot play', () => {
  it('makes an HEVC upload ready on its first segment, grows the playlist, then stores the progressive file', async () => {
    const storage = new WatchedStorage(path.join(dir, 'media'));
    const jobs = new VideoSteps({ db: handle.db, storage, media: tools, logger, workDir: path.join(dir, 'work'), maxAttempts: 2 });
    const id = await ingest(storage, clips.hevc!);
    const keys = videoMediaKeys(id);
    await jobs.playable({ videoId: id }, context());

    const shots = storage.snapshots;
    expect(shots.length).toBeGreaterThanOrEqual(2);
    // Every published playlist names only files already stored.
    expect(shots.flatMap((s) => s.missing)).toEqual([]);
    // It grows, and only the last one is complete.
    for (let i = 1; i < shots.length; i++) expect(shots[i]!.segments).toBeGreaterThan(shots[i - 1]!.segments);
    expect(shots.slice(0, -1).every((s) => !s.ended)).toBe(true);
    expect(shots.at(-1)!.ended).toBe(true);
    // A short first segment, then 2 s ones: 1 + 2 * 10 s for 20 s of video.
    const final = parseMediaPlaylist(await fs.readFile(storage.localPath(keys.livePlaylist)!, 'utf8'));
    expect(final.segments[0]!.duration).toBeCloseTo(1, 1);
    expect(final.segments.reduce((t, s) => t + s.duration, 0)).toBeCloseTo(20, 0);
    // Playable (ready, with the live playlist as its HLS source) while the encode was still running.
    expect(shots.some((s) => !s.ended && s.status === 'ready' && s.hlsKey === keys.livePlaylist && s.videoKey === null)).toBe(true);

    const row = await video(id);
    expect(row).toMatchObject({ status: 'ready', video_key: keys.playable, hls_key: keys.livePlaylist, width: 640, height: 360 });
    const mp4 = await probeMedia(storage.localPath(keys.playable)!, { tools });
    expect(mp4.video!.codec).toBe('h264');
    expect(isBrowserPlayable(mp4)).toBe(true);
    expect(mp4.duration).toBeCloseTo(20, 0);
    expect(cacheControlFor(keys.livePlaylist)).toBe('no-cache');

    // The ladder replaces the live rendition; once every output exists the live files go.
    await jobs.storyboard({ videoId: id }, context());
    await jobs.ladder({ videoId: id }, context());
    const done = await video(id);
    expect(done.hls_key).toBe(keys.hlsMaster);
    expect(await storage.list(keys.livePrefix)).toEqual([]);
    expect(await storage.stat(keys.playable)).not.toBeNull();
  }, 300_000);

  it('does the same for 10-bit HEVC with MP3 audio, at most 480p', async () => {
    const storage = new WatchedStorage(path.join(dir, 'media'));
    const jobs = new VideoSteps({ db: handle.db, storage, media: tools, logger, workDir: path.join(dir, 'work'), maxAttempts: 2 });
    const id = await ingest(storage, clips.hevc10!);
    await jobs.playable({ videoId: id }, context());
    const row = await video(id);
    expect(row.status).toBe('ready');
    const mp4 = await probeMedia(storage.localPath(row.video_key!)!, { tools });
    expect(isBrowserPlayable(mp4)).toBe(true);
    expect(mp4.audio!.codec).toBe('aac');
    expect(storage.snapshots.at(-1)).toMatchObject({ ended: true, missing: [] });
  }, 300_000);
});
