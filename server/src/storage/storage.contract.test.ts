import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/support/s3-server.js';
import { createStorage } from './create-storage.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

async function text(stream: Readable): Promise<string> {
  return (await buffer(stream)).toString('utf8');
}
async function buffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** A deterministic stream of `total` bytes in 64 KiB chunks, optionally failing after `failAfter` bytes. */
function byteStream(total: number, failAfter?: number): Readable {
  return Readable.from(
    (async function* () {
      let sent = 0;
      let n = 0;
      while (sent < total) {
        if (failAfter !== undefined && sent >= failAfter) throw new Error('client went away');
        const size = Math.min(64 * 1024, total - sent);
        const chunk = Buffer.alloc(size, n++ % 251);
        sent += size;
        yield chunk;
      }
    })(),
  );
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Harness {
  storage: Storage;
  /** A storage whose backend cannot be reached or written. */
  broken: () => Promise<Storage>;
  /** Storage with a public base URL set. */
  withBaseUrl: (base: string) => Storage;
  cleanup: () => Promise<void>;
}

const backends: [string, () => Promise<Harness>][] = [
  [
    'local',
    async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-local-'));
      return {
        storage: createStorage({ kind: 'local', root, publicBaseUrl: null }),
        broken: async () => {
          const gone = path.join(root, 'gone');
          const s = new LocalStorage(gone);
          await fs.rm(gone, { recursive: true, force: true });
          return s;
        },
        withBaseUrl: (base) => new LocalStorage(root, base),
        cleanup: () => fs.rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      const s3: TestS3Server = await startS3Server();
      const opts = {
        kind: 's3' as const,
        endpoint: s3.endpoint,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
        publicBaseUrl: null,
      };
      return {
        storage: createStorage(opts),
        broken: async () => createStorage({ ...opts, bucket: 'no-such-bucket' }),
        withBaseUrl: (base) => createStorage({ ...opts, publicBaseUrl: base }),
        cleanup: () => s3.stop(),
      };
    },
  ],
];

describe.each(backends)('Storage contract: %s', (kind, make) => {
  let h: Harness;
  let s: Storage;
  beforeAll(async () => {
    h = await make();
    s = h.storage;
  });
  afterAll(async () => {
    if (s instanceof S3Storage) s.destroy();
    await h?.cleanup();
  });

  it('reports its kind', () => {
    expect(s.kind).toBe(kind);
  });

  it('puts a buffer and reads it back with its size and type', async () => {
    const put = await s.put('videos/v1/thumb.jpg', Buffer.from('not really a jpeg'));
    expect(put).toEqual({ size: 17, contentType: 'image/jpeg' });
    const st = await s.stat('videos/v1/thumb.jpg');
    expect(st).toMatchObject({ size: 17, contentType: 'image/jpeg' });
    expect(st?.etag).toBeTruthy();
    expect(st?.lastModified).toBeInstanceOf(Date);
    expect(await text(await s.read('videos/v1/thumb.jpg'))).toBe('not really a jpeg');
  });

  it('keeps an explicit content type', async () => {
    const put = await s.put('videos/v1/source', Buffer.from('x'), 'video/mp4');
    expect(put.contentType).toBe('video/mp4');
  });

  it('streams a large body (several multipart parts) without changing a byte', async () => {
    const total = 17 * 1024 * 1024 + 123;
    const expected = await buffer(byteStream(total));
    const put = await s.put('videos/v1/source.mp4', byteStream(total));
    expect(put.size).toBe(total);
    expect((await s.stat('videos/v1/source.mp4'))?.size).toBe(total);
    const back = await buffer(await s.read('videos/v1/source.mp4'));
    expect(back.length).toBe(total);
    expect(sha(back)).toBe(sha(expected));
  });

  it('reads an inclusive byte range', async () => {
    await s.put('videos/v2/video.mp4', Buffer.from('0123456789abcdef'));
    expect(await text(await s.read('videos/v2/video.mp4', { start: 0, end: 0 }))).toBe('0');
    expect(await text(await s.read('videos/v2/video.mp4', { start: 3, end: 7 }))).toBe('34567');
    expect(await text(await s.read('videos/v2/video.mp4', { start: 10, end: 15 }))).toBe('abcdef');
  });

  it('overwrites an existing key', async () => {
    await s.put('videos/v2/index.m3u8', Buffer.from('first'));
    await s.put('videos/v2/index.m3u8', Buffer.from('second!'));
    expect(await text(await s.read('videos/v2/index.m3u8'))).toBe('second!');
    expect((await s.stat('videos/v2/index.m3u8'))?.size).toBe(7);
  });

  it('answers null for a missing key and fails to read it', async () => {
    expect(await s.stat('videos/nope/video.mp4')).toBeNull();
    await expect(s.read('videos/nope/video.mp4')).rejects.toThrow();
  });

  it('copies between local files and keys', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-files-'));
    try {
      const src = path.join(dir, 'in.bin');
      const data = randomBytes(300_000);
      await fs.writeFile(src, data);
      const put = await s.putFile('videos/v3/source.mp4', src);
      expect(put.size).toBe(data.length);
      const dst = path.join(dir, 'out.bin');
      await s.download('videos/v3/source.mp4', dst);
      expect(sha(await fs.readFile(dst))).toBe(sha(data));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('lists every key under a prefix, nested ones too, and nothing from a sibling prefix', async () => {
    await s.put('videos/list/a.jpg', Buffer.from('a'));
    await s.put('videos/list/hls/720p/seg-1.m4s', Buffer.from('b'));
    await s.put('videos/list/hls/master.m3u8', Buffer.from('c'));
    await s.put('videos/list2/a.jpg', Buffer.from('sibling'));
    const expected = ['videos/list/a.jpg', 'videos/list/hls/720p/seg-1.m4s', 'videos/list/hls/master.m3u8'];
    expect(await s.list('videos/list/')).toEqual(expected);
    expect(await s.list('videos/list')).toEqual(expected);
    expect(await s.list('videos/empty/')).toEqual([]);
  });

  it('lists past one page of keys', async () => {
    const keys = Array.from({ length: 1105 }, (_, i) => `videos/many/s/seg-${String(i).padStart(5, '0')}.m4s`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((k) => s.put(k, Buffer.from('x'))));
    }
    expect(await s.list('videos/many/')).toEqual(keys);
    await s.deletePrefix('videos/many/');
    expect(await s.list('videos/many/')).toEqual([]);
  });

  it('deletes a key, and deleting a missing key is fine', async () => {
    await s.put('videos/del/a.jpg', Buffer.from('a'));
    await s.delete('videos/del/a.jpg');
    expect(await s.stat('videos/del/a.jpg')).toBeNull();
    await expect(s.delete('videos/del/a.jpg')).resolves.toBeUndefined();
  });

  it('deletes a prefix with nested keys and leaves a sibling prefix alone', async () => {
    await s.put('videos/gone/source.mp4', Buffer.from('1'));
    await s.put('videos/gone/hls/240p/init.mp4', Buffer.from('2'));
    await s.put('videos/gone/hls/240p/seg-00001.m4s', Buffer.from('3'));
    await s.put('videos/gone/storyboard/sprite-0.jpg', Buffer.from('4'));
    await s.put('videos/gone2/source.mp4', Buffer.from('keep'));
    await s.deletePrefix('videos/gone/');
    expect(await s.list('videos/gone/')).toEqual([]);
    expect(await s.stat('videos/gone/hls/240p/init.mp4')).toBeNull();
    expect(await s.list('videos/gone2/')).toEqual(['videos/gone2/source.mp4']);
    expect(await text(await s.read('videos/gone2/source.mp4'))).toBe('keep');
    await expect(s.deletePrefix('videos/never-existed/')).resolves.toBeUndefined();
  });

  it('leaves no object when the body fails early', async () => {
    await expect(s.put('videos/atomic/small.mp4', byteStream(1024 * 1024, 200 * 1024))).rejects.toThrow('client went away');
    expect(await s.stat('videos/atomic/small.mp4')).toBeNull();
    expect(await s.list('videos/atomic/')).toEqual([]);
  });

  it('leaves no object when the body fails after several parts', async () => {
    await expect(s.put('videos/atomic/big.mp4', byteStream(40 * 1024 * 1024, 20 * 1024 * 1024))).rejects.toThrow('client went away');
    expect(await s.stat('videos/atomic/big.mp4')).toBeNull();
    expect(await s.list('videos/atomic/')).toEqual([]);
  });

  it('keeps the old object whole when a replacement fails', async () => {
    await s.put('videos/atomic/keep.mp4', Buffer.from('original'));
    await expect(s.put('videos/atomic/keep.mp4', byteStream(1024 * 1024, 100 * 1024))).rejects.toThrow();
    expect(await text(await s.read('videos/atomic/keep.mp4'))).toBe('original');
  });

  it('rejects keys that climb out of their prefix', async () => {
    for (const key of ['../etc/passwd', 'videos/../../x', '/abs', 'videos//x', 'a\\b']) {
      await expect(s.put(key, Buffer.from('x'))).rejects.toThrow('Unsafe storage key');
      expect(() => s.url(key)).toThrow('Unsafe storage key');
    }
  });

  it('gives the API path as URL, or the public base URL when one is set', () => {
    expect(s.url('videos/v1/hls/master.m3u8')).toBe('/media/videos/v1/hls/master.m3u8');
    const cdn = h.withBaseUrl('https://cdn.example.com/media/');
    expect(cdn.url('videos/v1/hls/master.m3u8')).toBe('https://cdn.example.com/media/videos/v1/hls/master.m3u8');
  });

  it("gives another server's address as it is, and never deletes it", async () => {
    const elsewhere = 'https://video.example.com/media/videos/v9/hls/master.m3u8';
    expect(s.url(elsewhere)).toBe(elsewhere);
    await expect(s.delete(elsewhere)).resolves.toBeUndefined();
  });

  it('offers a local path only when the file is on this machine', async () => {
    await s.put('videos/lp/video.mp4', Buffer.from('x'));
    const p = s.localPath('videos/lp/video.mp4');
    if (kind === 'local') expect(await fs.readFile(p!, 'utf8')).toBe('x');
    else expect(p).toBeNull();
  });

  it('reports health', async () => {
    expect(await s.healthy()).toBe(true);
    expect(await (await h.broken()).healthy()).toBe(false);
  });
});
