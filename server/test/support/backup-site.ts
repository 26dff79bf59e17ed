import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { makeClip } from '../../src/media/fixtures.js';
import { ApiClient, clipUploadForm, freePort, MAIN_JS, ROOT, type RunningProcess, startProcess, waitForHealthy } from './processes.js';

export const BACKUP_JS = path.join(ROOT, 'server/dist/backup-cli.js');
export const RESTORE_JS = path.join(ROOT, 'server/dist/restore-cli.js');

export const SITE_ENV = {
  DEMO_ACCOUNT: 'false',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  RATE_LIMIT_UPLOADS_PER_HOUR: '10000',
  RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
};

/** A small clip and a thumbnail, made with ffmpeg and sharp at test time. */
export async function makeTestMedia(dir: string, clips: Record<string, { width: number; height: number; seconds: number }>): Promise<void> {
  await Promise.all([
    ...Object.entries(clips).map(([name, spec]) => makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', path.join(dir, name), spec)),
    sharp({ create: { width: 160, height: 90, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png()
      .toFile(path.join(dir, 'thumb.png')),
  ]);
}

export interface Site {
  api: ApiClient;
  proc: RunningProcess;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** `node server/dist/main.js` with these settings, once healthy. */
export async function startSite(name: string, env: Record<string, string>): Promise<Site> {
  const port = await freePort();
  const full = { ...SITE_ENV, ...env, PORT: String(port), HOST: '127.0.0.1' };
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  const proc = startProcess(name, MAIN_JS, full);
  await waitForHealthy(api, proc, 90_000);
  return {
    api,
    proc,
    env: full,
    async stop() {
      await proc.stop();
    },
  };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the command-line scripts to its end (or hands back the child, to kill it). */
export function startCli(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...SITE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const done = new Promise<CliRun>((resolve) => child.once('close', (code) => resolve({ code, ...out })));
  return { child, out, done };
}

export const runCli = (script: string, args: string[], env: Record<string, string>) => startCli(script, args, env).done;

/** Rows of a query on the site's database, SQLite file or PostgreSQL URL, read straight from it. */
export async function queryRows<T>(database: { file: string } | { url: string }, text: string): Promise<T[]> {
  if ('file' in database) {
    const db = new SQLite(database.file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(text).all() as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every file under a directory, as slash-separated paths relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    let entries;
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
      else out.push(r);
    }
  };
  await walk(dir, '');
  return out.sort();
}

export const tmpDir = (prefix: string) => fs.mkdtemp(path.join(os.tmpdir(), prefix));

/** Waits until the video is ready with its ladder and previews, or fails. */
export async function waitReady(api: ApiClient, id: string, timeoutMs = 180_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.call('GET', `/api/v1/videos/${id}`);
    const v = res.json?.data;
    if (v?.status === 'failed') throw new Error(`video ${id} failed: ${JSON.stringify(v)}`);
    if (v?.status === 'ready' && v.hls && v.storyboard) return;
    if (Date.now() > end) throw new Error(`video ${id} never became ready: ${JSON.stringify(res.json)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A site started with `env`, and one video of `<clips>/small.mp4` uploaded by a fresh account and processed. */
export async function startSiteWithVideo(
  name: string,
  env: Record<string, string>,
  clips: string,
  title: string,
): Promise<{ site: Site; alice: ApiClient; videoId: string }> {
  const site = await startSite(name, env);
  const alice = new ApiClient(site.api.base);
  await alice.signUp();
  const up = await alice.call('POST', '/api/v1/videos/', await clipUploadForm(clips, 'small.mp4', title, 'made by a backup test'));
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(up.json)}`);
  const videoId = up.json.data._id as string;
  await waitReady(alice, videoId);
  return { site, alice, videoId };
}
