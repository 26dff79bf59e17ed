import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../storage/local-storage.js';
import { LocalMediaCopy } from './media-copy.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});
const tmp = async (base: string) => {
  const d = await fs.mkdtemp(path.join(base, 'reelhouse-media-copy-'));
  dirs.push(d);
  return d;
};
const read = (dir: string, key: string) => fs.readFile(path.join(dir, ...key.split('/')), 'utf8');

// /dev/shm is another filesystem than the temporary directory: links fail there and files are copied.
describe.each([
  ['on the same filesystem (links)', os.tmpdir()],
  ['on another filesystem (copies)', '/dev/shm'],
])('local media into a backup %s', (_, targetBase) => {
  it('holds the files of the snapshot rows as they were, whatever the site does meanwhile', async () => {
    const storage = new LocalStorage(await tmp(os.tmpdir()));
    const target = path.join(await tmp(targetBase), 'media');
    await storage.put('videos/kept/a.mp4', Buffer.from('kept a'));
    await storage.put('videos/kept/hls/1.m4s', Buffer.from('kept segment'));
    await storage.put('videos/gone-before/a.mp4', Buffer.from('of a row deleted before the snapshot'));
    await storage.put('users/u1/avatar.webp', Buffer.from('avatar'));
    await storage.put('.tmp-like/not-media', Buffer.from('never held'));
    const copy = new LocalMediaCopy(storage, target);

    await copy.linkAll();
    // Between the first pass and the snapshot: a file replaced, a new one, a video made.
    await storage.put('users/u1/avatar.webp', Buffer.from('new avatar'));
    await storage.put('videos/kept/thumb.jpg', Buffer.from('thumb'));
    await storage.put('videos/after/a.mp4', Buffer.from('a video the snapshot does not have'));
    const owners = { videoIds: new Set(['kept']), userIds: new Set(['u1']) };
    // After the snapshot: the site deletes a video the snapshot has.
    await storage.deletePrefix('videos/kept/');

    await copy.linkOwned(owners);
    await copy.dropUnowned(owners);
    const sums = await copy.sums();
    expect(sums.map((s) => s.key)).toEqual(['users/u1/avatar.webp', 'videos/kept/a.mp4', 'videos/kept/hls/1.m4s']);
    expect(await read(target, 'videos/kept/a.mp4')).toBe('kept a');
    expect(await read(target, 'videos/kept/hls/1.m4s')).toBe('kept segment');
    expect(await read(target, 'users/u1/avatar.webp')).toBe('new avatar');
    expect(sums.find((s) => s.key === 'videos/kept/a.mp4')).toEqual({
      key: 'videos/kept/a.mp4',
      bytes: 6,
      sha256: createHash('sha256').update('kept a').digest('hex'),
    });
    const linked = (await fs.stat(path.join(target, 'users', 'u1', 'avatar.webp'))).ino === (await fs.stat(storage.localPath('users/u1/avatar.webp')!)).ino;
    expect(linked).toBe(targetBase === os.tmpdir());
    await expect(fs.access(path.join(target, 'videos', 'after'))).rejects.toThrow();
    await expect(fs.access(path.join(target, 'videos', 'gone-before'))).rejects.toThrow();
  });
});
