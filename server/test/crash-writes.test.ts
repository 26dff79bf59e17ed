import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../src/media/fixtures.js';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from './support/processes.js';

/**
 * The site's one process (SQLite, local disk, jobs in-process) killed with SIGKILL in the middle of
 * an upload and in the middle of a burst of writes. After a restart: the database passes SQLite's
 * integrity and foreign-key checks, every write that was acknowledged is there with its counters
 * right, the jobs finish, and no temporary or orphaned file is left. (crash.test.ts kills a
 * process in the middle of a transcode.)
 */

let dataDir = '';
let port = 0;
let api: ApiClient;
let proc: RunningProcess;
let clip: Buffer;
let thumb: Buffer;
const env = () => ({
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  DEMO_ACCOUNT: 'false',
  LOG_LEVEL: 'info',
  NODE_ENV: 'production',
  RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  RATE_LIMIT_UPLOADS_PER_HOUR: '10000',
  RATE_LIMIT_GENERAL_PER_MINUTE: '1000000',
});

async function restart(name: string) {
  proc = startProcess(name, MAIN_JS, env());
  await waitForHealthy(api, proc, 90_000);
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-crash-writes-'));
  port = await freePort();
  api = new ApiClient(`http://127.0.0.1:${port}`);
  const clipPath = path.join(dataDir, 'clip.mp4');
  await Promise.all([buildServer(), makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', clipPath, { width: 640, height: 360, seconds: 4 })]);
  clip = await fs.readFile(clipPath);
  await fs.rm(clipPath);
  thumb = await sharp({ create: { width: 160, height: 90, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  await restart('site');
  await api.signUp();
}, 240_000);

afterAll(async () => {
  await proc?.kill();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

/** Opens the database file beside the running server, read-only, for checks. */
function checkDatabase<T>(read: (db: Database.Database) => T): T {
  const db = new Database(path.join(dataDir, 'reelhouse.db'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function expectIntact() {
  checkDatabase((db) => {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dataDir, path.join(e.parentPath, e.name)));
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function uploadForm(title: string): FormData {
  const form = new FormData();
  form.append('title', title);
  form.append('description', 'crash test');
  form.append('videoFile', new File([clip], 'clip.mp4', { type: 'video/mp4' }));
  form.append('thumbnail', new File([thumb], 'thumb.png', { type: 'image/png' }));
  return form;
}

async function waitReady(id: string) {
  await eventually(
    `video ${id} to be ready`,
    async () => {
      const res = await api.call('GET', `/api/v1/videos/${id}`);
      expect(res.json.data.status).not.toBe('failed');
      return res.json.data.status === 'ready';
    },
    180_000,
  );
}

describe('SIGKILL of the one process', () => {
  it('mid-upload: after a restart no row, no stored file and no temporary file remain, and uploading again works', async () => {
    const boundary = 'crashBoundary0123456789';
    const head = (name: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n`;
    const body = Buffer.concat([
      Buffer.from(`${head('title')}Never finished\r\n${head('description')}cut off\r\n`),
      Buffer.from(head('videoFile', '; filename="clip.mp4"\r\nContent-Type: video/mp4')),
      clip,
      Buffer.from('\r\n'),
      Buffer.from(`${head('thumbnail', '; filename="t.png"\r\nContent-Type: image/png')}`),
      thumb,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /api/v1/videos/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${api.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // Most of the video, then nothing: the server is left holding a half-written temporary file.
    socket.write(body.subarray(0, Math.floor(body.length * 0.7)));
    const tmp = path.join(dataDir, 'tmp');
    await eventually('the upload to reach a temporary file', async () => (await filesUnder(tmp)).length > 0, 30_000);
    await proc.kill();
    socket.destroy();
    expect((await filesUnder(tmp)).length).toBeGreaterThan(0);

    await restart('site (after an upload was cut)');
    expectIntact();
    // The restarted process's first housekeeping run removes the dead process's temporary file.
    await eventually('the temporary upload to be swept', async () => (await filesUnder(tmp)).length === 0, 30_000);
    expect(checkDatabase((db) => db.prepare('select count(*) as n from videos').get())).toEqual({ n: 0 });
    expect(await filesUnder(path.join(dataDir, 'media'))).toEqual([]);

    const again = await api.call('POST', '/api/v1/videos/', uploadForm('Uploaded after the crash'));
    expect(again.status, JSON.stringify(again.json)).toBe(201);
    await waitReady(again.json.data._id);
  }, 400_000);

  it('mid-burst of writes: every acknowledged comment, playlist and like is there, with counters equal to rows', async () => {
    const up = await api.call('POST', '/api/v1/videos/', uploadForm('Burst target'));
    expect(up.status).toBe(201);
    const videoId: string = up.json.data._id;
    await waitReady(videoId);

    const comments = new Set<string>();
    const playlists = new Set<string>();
    let killing: Promise<void> | null = null;
    const writer = async (lane: number) => {
      for (let i = 0; ; i++) {
        try {
          if (lane === 0) {
            await api.call('POST', `/api/v1/likes/toggle/video/${videoId}`);
          } else if (lane % 3 === 0) {
            const res = await api.call('POST', '/api/v1/playlist/', { name: `Burst ${lane}-${i}`, description: 'x' });
            if (res.status === 201) playlists.add(res.json.data._id);
          } else {
            const res = await api.call('POST', `/api/v1/comments/${videoId}`, { content: `burst ${lane}-${i}` });
            if (res.status === 201) comments.add(res.json.data._id);
          }
        } catch {
          return; // the connection died with the process: this write was never acknowledged
        }
        // Killed once both kinds have enough acknowledged to check (their pace differs with the machine).
        if (!killing && comments.size >= 45 && playlists.size >= 5) killing = proc.kill();
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, lane) => writer(lane)));
    await killing;
    expect(comments.size).toBeGreaterThanOrEqual(40);

    await restart('site (after a burst of writes)');
    expectIntact();
    checkDatabase((db) => {
      const ids = new Set((db.prepare('select id from comments where video_id = ?').all(videoId) as { id: string }[]).map((r) => r.id));
      expect([...comments].filter((id) => !ids.has(id))).toEqual([]);
      const video = db.prepare('select comments_count, likes_count from videos where id = ?').get(videoId) as { comments_count: number; likes_count: number };
      expect(video.comments_count).toBe(ids.size);
      const likes = (db.prepare("select count(*) as n from likes where target_type = 'video' and target_id = ?").get(videoId) as { n: number }).n;
      expect(video.likes_count).toBe(likes);
      expect([0, 1]).toContain(likes);
      const stored = new Set((db.prepare('select id from playlists').all() as { id: string }[]).map((r) => r.id));
      expect([...playlists].filter((id) => !stored.has(id))).toEqual([]);
    });
    // The video still plays after the crash, and the site keeps taking writes.
    const after = await api.call('POST', `/api/v1/comments/${videoId}`, { content: 'after the crash' });
    expect(after.status).toBe(201);
    expect(await filesUnder(path.join(dataDir, 'tmp'))).toEqual([]);
  }, 400_000);
});
