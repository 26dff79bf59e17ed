import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ApiClient } from './processes.js';

export interface VideoUrls {
  _id: string;
  status: string;
  videoFile: { url: string };
  thumbnail: { url: string };
  hls: { url: string } | null;
  storyboard: { url: string } | null;
}

/** Storage key of a `/media/...` URL. */
export const keyOfUrl = (url: string) => new URL(url, 'http://x').pathname.replace(/^\/media\//, '');

function uris(playlist: string): string[] {
  const out: string[] = [];
  for (const raw of playlist.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const map = /^#EXT-X-MAP:.*URI="([^"]+)"/.exec(line);
    if (map) out.push(map[1]!);
    else if (!line.startsWith('#')) out.push(line);
  }
  return out;
}

/**
 * Fetches everything a player would for a ready video (the progressive file, which ffprobe must
 * read, the HLS master, every variant, init and segment, the storyboard and its sprites, the
 * thumbnail) and answers the storage keys they came from.
 */
export async function fetchEverything(api: ApiClient, video: VideoUrls): Promise<Set<string>> {
  const keys = new Set<string>();
  const get = async (url: string, expectType?: RegExp) => {
    const res = await api.fetchBytes(url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    if (res.body.length === 0) throw new Error(`GET ${url}: empty`);
    if (expectType && !expectType.test(res.type ?? '')) throw new Error(`GET ${url}: type ${res.type}`);
    keys.add(keyOfUrl(url));
    return res.body;
  };

  const progressive = await get(video.videoFile.url, /^video\/mp4/);
  const tmp = path.join(os.tmpdir(), `reelhouse-play-${process.pid}-${video._id}.mp4`);
  await fs.writeFile(tmp, progressive);
  try {
    const { stdout } = await promisify(execFile)(process.env.FFPROBE_PATH ?? 'ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      tmp,
    ]);
    if (!(Number(stdout.trim()) > 0)) throw new Error(`progressive file of ${video._id} has no duration`);
  } finally {
    await fs.rm(tmp, { force: true });
  }

  await get(video.thumbnail.url, /^image\//);

  if (!video.hls) throw new Error(`video ${video._id} has no HLS`);
  const masterUrl = new URL(video.hls.url, 'http://x');
  const master = (await get(video.hls.url, /mpegurl/)).toString();
  const variants = uris(master);
  if (variants.length === 0) throw new Error('master playlist lists no variants');
  for (const v of variants) {
    const vUrl = new URL(v, masterUrl);
    const playlist = (await get(vUrl.pathname, /mpegurl/)).toString();
    if (!playlist.includes('#EXT-X-ENDLIST')) throw new Error(`${vUrl.pathname} is not finished`);
    const parts = uris(playlist);
    if (parts.length < 2) throw new Error(`${vUrl.pathname} has no segments`);
    for (const p of parts) await get(new URL(p, vUrl).pathname);
  }

  if (!video.storyboard) throw new Error(`video ${video._id} has no storyboard`);
  const vttUrl = new URL(video.storyboard.url, 'http://x');
  const vtt = (await get(video.storyboard.url, /^text\/vtt/)).toString();
  if (!vtt.startsWith('WEBVTT')) throw new Error('storyboard is not WebVTT');
  const sprites = new Set([...vtt.matchAll(/^(\S+?\.(?:jpg|jpeg|webp|png))#xywh=/gm)].map((m) => m[1]!));
  if (sprites.size === 0) throw new Error('storyboard names no sprites');
  for (const s of sprites) await get(new URL(s, vttUrl).pathname, /^image\//);
  return keys;
}
