import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { openDatabase, type Db, type DbHandle } from '../../src/db/client.js';
import type { JobContext } from '../../src/jobs/job-types.js';
import { makeClip } from '../../src/media/fixtures.js';
import { parseMediaPlaylist } from '../../src/media/hls.js';
import { MediaTools } from '../../src/media/media-tools.js';
import { videoMediaKeys } from '../../src/modules/pipeline/video-media.keys.js';
import { VideoSteps } from '../../src/modules/pipeline/video-steps.js';
import { LocalStorage } from '../../src/storage/local-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { createPgDatabase, testDialect } from './databases.js';

/**
 * What the video pipeline's tests share: a database (SQLite, or PostgreSQL with TEST_DB=postgres),
 * local storage, an owner, clips made with ffmpeg, the steps wired to them, and checks of what the
 * steps publish. A test file calls setUpPipelineTests once, at its top level.
 */
export const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const ffprobePath = process.env.FFPROBE_PATH ?? 'ffprobe';
export const tools = new MediaTools({ ffmpegPath, ffprobePath });
export const logger = pino({ level: 'silent' });

export let dir: string;
export let handle: DbHandle;
let dropPg: (() => Promise<void>) | null = null;
/** The storage the helpers below use; one test swaps in object storage (useStorage). */
export let storage: Storage;
/** The steps, as a queue would call them, telling `told` what they announce. */
export let jobs: VideoSteps;
export let ownerId: string;
export const clips: Record<string, string> = {};
/** What the jobs told their listener (notifications), in order. */
export const told: string[] = [];

export function useStorage(s: Storage): void {
  storage = s;
}

type ClipName = 'h264' | 'hevc' | 'silent' | 'portrait' | 'corrupt';

/** Registers the set-up and clean-up of a test file that needs the given clips. */
export function setUpPipelineTests(wanted: ClipName[]): void {
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'video-jobs-'));
    if (testDialect === 'postgres') {
      const pgDb = await createPgDatabase();
      dropPg = pgDb.drop;
      handle = await openDatabase({ database: { kind: 'postgres', url: pgDb.url } });
    } else {
      handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'db.sqlite') } });
    }
    storage = new LocalStorage(path.join(dir, 'media'));
    jobs = new VideoSteps({
      db: handle.db,
      storage,
      media: tools,
      logger,
      workDir: path.join(dir, 'work'),
      maxAttempts: 2,
      events: {
        videoReady: async (id) => void told.push(`ready:${id}`),
        videoFailed: async (id) => void told.push(`failed:${id}`),
      },
    });
    ownerId = await insertOwner(handle.db);
    const c = (name: string) => path.join(dir, name);
    const want = new Set(wanted);
    if (want.has('h264')) clips.h264 = await makeClip(ffmpegPath, c('h264.mp4'), { width: 1280, height: 720, seconds: 5, fps: 30 });
    if (want.has('hevc')) clips.hevc = await makeClip(ffmpegPath, c('hevc.mp4'), { width: 640, height: 360, seconds: 3, videoCodec: 'libx265' });
    if (want.has('silent') || want.has('corrupt'))
      clips.silent = await makeClip(ffmpegPath, c('silent.mp4'), { width: 640, height: 360, seconds: 3, audioCodec: null });
    if (want.has('portrait')) clips.portrait = await makeClip(ffmpegPath, c('portrait.mp4'), { width: 720, height: 1280, seconds: 2, fps: 24 });
    if (want.has('corrupt')) {
      clips.corrupt = c('corrupt.mp4');
      const good = await fs.readFile(clips.silent!);
      // A real mp4 header followed by noise: it looks like a video until something tries to read it.
      await fs.writeFile(clips.corrupt, Buffer.concat([good.subarray(0, 32), Buffer.alloc(20_000, 0x5a)]));
    }
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await dropPg?.();
    await fs.rm(dir, { recursive: true, force: true });
  });
}

export function context(overrides: Partial<JobContext> = {}): JobContext & { reported: number[] } {
  const reported: number[] = [];
  return {
    attempt: 1,
    signal: new AbortController().signal,
    progress: async (p) => {
      reported.push(p);
    },
    reported,
    ...overrides,
  };
}

/** Stores a source and a thumbnail and creates its row the way the upload route does. */
export async function ingest(clip: string): Promise<string> {
  const id = randomUUID();
  const sourceKey = videoMediaKeys(id).source;
  await storage.putFile(sourceKey, clip);
  await storage.put(thumbnailKey(id), Buffer.from('RIFF....WEBP'), 'image/webp');
  await insertProcessingVideo(handle.db, { id, ownerId, sourceKey, thumbnailKey: thumbnailKey(id) });
  return id;
}

/** An account to own the pipeline's videos. */
export async function insertOwner(db: Db): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db
    .insertInto('users')
    .values({
      id,
      username: 'owner',
      email: 'owner@example.com',
      full_name: 'Owner',
      password_hash: 'x',
      avatar_key: null,
      cover_key: null,
      is_demo: 0,
      subscribers_count: 0,
      videos_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** A video row as the upload route leaves it: processing, its source stored, nothing made yet. */
export async function insertProcessingVideo(
  db: Db,
  v: { id: string; ownerId: string; sourceKey: string; thumbnailKey: string; title?: string },
): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('videos')
    .values({
      id: v.id,
      owner_id: v.ownerId,
      title: v.title ?? 'Clip',
      description: '',
      owner_text: 'owner Owner',
      duration: 0,
      views: 0,
      status: 'processing',
      progress: 0,
      failure_reason: null,
      visibility: 'public',
      publish_at: null,
      hidden_at: null,
      hidden_reason: null,
      listed: 0,
      watchable: 0,
      width: null,
      height: null,
      source_key: v.sourceKey,
      video_key: null,
      hls_key: null,
      storyboard_key: null,
      thumbnail_key: v.thumbnailKey,
      source_bytes: 0,
      likes_count: 0,
      comments_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export const thumbnailKey = (id: string) => `${videoMediaKeys(id).root}thumbnail.webp`;

export const video = (id: string) => handle.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();

export async function readText(key: string) {
  const stream = await storage.read(key);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every playlist the master names, and every init segment and segment they name, is in storage. */
export async function checkLadder(masterKey: string) {
  const base = masterKey.slice(0, masterKey.lastIndexOf('/') + 1);
  const master = await readText(masterKey);
  const variants = master.split('\n').filter((l) => l && !l.startsWith('#'));
  const infos = master.split('\n').filter((l) => l.startsWith('#EXT-X-STREAM-INF:'));
  expect(variants.length).toBe(infos.length);
  let totalSegments = 0;
  for (const uri of variants) {
    const playlistKey = base + uri;
    const playlist = parseMediaPlaylist(await readText(playlistKey));
    const dirKey = playlistKey.slice(0, playlistKey.lastIndexOf('/') + 1);
    expect(playlist.ended).toBe(true);
    expect(playlist.initUri).toBeTruthy();
    expect(await storage.stat(dirKey + playlist.initUri)).not.toBeNull();
    expect(playlist.targetDuration).toBeLessThanOrEqual(5);
    for (const s of playlist.segments) {
      expect(await storage.stat(dirKey + s.uri), `${dirKey}${s.uri}`).not.toBeNull();
      expect(s.duration).toBeLessThanOrEqual(4.5);
      totalSegments++;
    }
  }
  expect(totalSegments).toBeGreaterThan(0);
  return { master, infos, variants };
}

export async function checkStoryboard(vttKey: string) {
  const base = vttKey.slice(0, vttKey.lastIndexOf('/') + 1);
  const vtt = await readText(vttKey);
  expect(vtt.startsWith('WEBVTT')).toBe(true);
  const refs = [...vtt.matchAll(/^(sprite-\d+\.jpg)#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)];
  expect(refs.length).toBeGreaterThan(0);
  for (const r of refs) expect(await storage.stat(base + r[1])).not.toBeNull();
  return refs;
}

/** Total bytes stored under a prefix. */
export async function bytesUnder(prefix: string) {
  let total = 0;
  for (const key of await storage.list(prefix)) total += (await storage.stat(key))!.size;
  return total;
}

/** After processing only what players fetch is kept: play.mp4, the ladder, the storyboard, the thumbnail. */
export function expectOnlyOutputs(id: string, stored: string[]) {
  const keys = videoMediaKeys(id);
  const other = stored.filter((k) => k !== keys.playable && k !== thumbnailKey(id) && !k.startsWith(keys.hlsPrefix) && !k.startsWith(keys.storyboardPrefix));
  expect(other).toEqual([]);
  expect(stored).toContain(keys.playable);
  expect(stored).toContain(keys.hlsMaster);
  expect(stored).toContain(keys.storyboardVtt);
  expect(stored).toContain(thumbnailKey(id));
}

/** A fast-start file has its moov box before its mdat box. */
export async function moovFirst(file: string) {
  const buf = await fs.readFile(file);
  return buf.indexOf('moov') < buf.indexOf('mdat');
}
