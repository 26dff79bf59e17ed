import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/support/s3-server.js';
import { createStorage } from '../storage/create-storage.js';
import { S3Storage } from '../storage/s3-storage.js';
import type { Storage } from '../storage/storage.js';
import { registerErrorHandler } from './error-handler.js';
import { mediaRoutes, parseRange } from './media-route.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-0', 10, { start: 0, end: 0 }],
    ['bytes=2-5', 10, { start: 2, end: 5 }],
    ['bytes=4-', 10, { start: 4, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=5-400', 10, { start: 5, end: 9 }],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    [undefined, 10, null],
    ['bytes=5-2', 10, null],
    ['bytes=0-1,4-5', 10, null],
    ['items=0-1', 10, null],
    ['bytes=-', 10, null],
  ] as const)('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

const SIXTEEN = Buffer.from('0123456789abcdef');
const BIG = randomBytes(1024 * 1024 + 7);

const backends: [string, () => Promise<{ storage: Storage; cleanup(): Promise<void> }>][] = [
  [
    'local',
    async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-media-'));
      return {
        storage: createStorage({ kind: 'local', root, publicBaseUrl: null }),
        cleanup: () => fs.rm(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3 (proxied)',
    async () => {
      const s3: TestS3Server = await startS3Server();
      const storage = createStorage({
        kind: 's3',
        endpoint: s3.endpoint,
        bucket: s3.bucket,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
        publicBaseUrl: null,
      });
      return {
        storage,
        cleanup: async () => {
          (storage as S3Storage).destroy();
          await s3.stop();
        },
      };
    },
  ],
];

describe.each(backends)('GET /media/* from %s storage', (_kind, make) => {
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  let storage: Storage;

  beforeAll(async () => {
    const made = await make();
    cleanup = made.cleanup;
    const s = made.storage;
    storage = s;
    await s.put('videos/v1/video.mp4', SIXTEEN);
    await s.put('videos/v1/big.mp4', BIG);
    await s.put('videos/v1/hls/master.m3u8', Buffer.from('#EXTM3U\n'));
    await s.put('videos/v1/hls/720p/init.mp4', Buffer.from('init'));
    await s.put('videos/v1/hls/720p/seg-00001.m4s', Buffer.from('segment'));
    await s.put('videos/v1/storyboard/sprite-0.jpg', Buffer.from('jpeg'));
    await s.put('videos/v1/storyboard/index.vtt', Buffer.from('WEBVTT\n'));
    await s.put('videos/v1/empty.mp4', Buffer.alloc(0));
    app = Fastify();
    registerErrorHandler(app);
    await app.register(mediaRoutes(s));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  it("serves a live's broadcast files from memory after the first read, and a rewritten playlist afresh", async () => {
    const list = 'videos/v2/broadcast/r0/index.m3u8';
    const segment = 'videos/v2/broadcast/r0/seg-000001.m4s';
    await storage.put(list, Buffer.from('#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:1\n'));
    await storage.put(segment, Buffer.from('first segment'));
    for (let i = 0; i < 2; i++) {
      const seg = await app.inject({ url: `/media/${segment}` });
      expect(seg.statusCode).toBe(200);
      expect(seg.body).toBe('first segment');
      expect(seg.headers['content-length']).toBe('13');
    }
    expect((await app.inject({ url: `/media/${list}` })).body).toContain('SEQUENCE:1');
    // The next second's playlist, the same length: what is served is what is stored now.
    await new Promise((r) => setTimeout(r, 20));
    await storage.put(list, Buffer.from('#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:2\n'));
    expect((await app.inject({ url: `/media/${list}` })).body).toContain('SEQUENCE:2');
    // A range is still a range.
    const part = await app.inject({ url: `/media/${segment}`, headers: { range: 'bytes=0-4' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('first');
  });

  it("lets other sites' pages read media only when the site federates", async () => {
    expect((await app.inject({ url: '/media/videos/v1/hls/master.m3u8' })).headers['access-control-allow-origin']).toBeUndefined();
    const shared = Fastify();
    registerErrorHandler(shared);
    await shared.register(mediaRoutes(storage, undefined, { shareWithOtherSites: true }));
    try {
      const res = await shared.inject({ url: '/media/videos/v1/hls/master.m3u8', headers: { origin: 'https://other.example' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await shared.close();
    }
  });

  it('sends a whole file with its type, length and validators', async () => {
    const res = await app.inject({ method: 'GET', url: '/media/videos/v1/video.mp4' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(SIXTEEN);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-length']).toBe('16');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers.etag).toBeTruthy();
    expect(new Date(String(res.headers['last-modified'])).getTime()).toBeGreaterThan(Date.now() - 3600_000);
  });

  it('sends a byte range as 206 with Content-Range', async () => {
    const res = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=2-5' } });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('2345');
    expect(res.headers['content-range']).toBe('bytes 2-5/16');
    expect(res.headers['content-length']).toBe('4');
  });

  it('sends open-ended, suffix and first-byte ranges', async () => {
    const open = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=10-' } });
    expect([open.statusCode, open.body, open.headers['content-range']]).toEqual([206, 'abcdef', 'bytes 10-15/16']);
    const suffix = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=-4' } });
    expect([suffix.statusCode, suffix.body, suffix.headers['content-range']]).toEqual([206, 'cdef', 'bytes 12-15/16']);
    const first = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=0-0' } });
    expect([first.statusCode, first.body, first.headers['content-range']]).toEqual([206, '0', 'bytes 0-0/16']);
    const past = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=14-99' } });
    expect([past.statusCode, past.body, past.headers['content-range']]).toEqual([206, 'ef', 'bytes 14-15/16']);
  });

  it('sends the exact bytes of a range in the middle of a large file', async () => {
    const start = 300_001;
    const end = 900_123;
    const res = await app.inject({ url: '/media/videos/v1/big.mp4', headers: { range: `bytes=${start}-${end}` } });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload.equals(BIG.subarray(start, end + 1))).toBe(true);
    const whole = await app.inject({ url: '/media/videos/v1/big.mp4' });
    expect(whole.rawPayload.equals(BIG)).toBe(true);
  });

  it('answers 416 for a range past the end', async () => {
    const res = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=16-' } });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */16');
    expect(res.json()).toEqual({ statusCode: 416, data: null, message: 'Requested range not satisfiable', success: false });
  });

  it('sends the whole file for a range it does not understand', async () => {
    const res = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=0-1,4-5' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SIXTEEN.toString());
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/media/videos/v1/video.mp4' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('16');
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.body).toBe('');
    const ranged = await app.inject({ method: 'HEAD', url: '/media/videos/v1/video.mp4', headers: { range: 'bytes=0-1' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe('bytes 0-1/16');
    expect(ranged.body).toBe('');
  });

  it('sends an empty file', async () => {
    const res = await app.inject({ url: '/media/videos/v1/empty.mp4' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.body).toBe('');
  });

  it('caches segments, init files and images for a year, playlists briefly', async () => {
    const cache = async (url: string) => {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      return [res.headers['content-type'], res.headers['cache-control']];
    };
    const year = 'public, max-age=31536000, immutable';
    expect(await cache('/media/videos/v1/hls/720p/seg-00001.m4s')).toEqual(['video/iso.segment', year]);
    expect(await cache('/media/videos/v1/hls/720p/init.mp4')).toEqual(['video/mp4', year]);
    expect(await cache('/media/videos/v1/storyboard/sprite-0.jpg')).toEqual(['image/jpeg', year]);
    expect(await cache('/media/videos/v1/hls/master.m3u8')).toEqual(['application/vnd.apple.mpegurl', 'public, max-age=10']);
    expect(await cache('/media/videos/v1/storyboard/index.vtt')).toEqual(['text/vtt; charset=utf-8', 'public, max-age=3600']);
    expect(await cache('/media/videos/v1/video.mp4')).toEqual(['video/mp4', 'public, max-age=3600']);
  });

  it('answers 304 when the client already has the file', async () => {
    const first = await app.inject({ url: '/media/videos/v1/video.mp4' });
    const etag = String(first.headers.etag);
    const again = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const since = await app.inject({
      url: '/media/videos/v1/video.mp4',
      headers: { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
    });
    expect(since.statusCode).toBe(304);
    const changed = await app.inject({ url: '/media/videos/v1/video.mp4', headers: { 'if-none-match': '"something-else"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('ignores a range meant for another version of the file', async () => {
    const res = await app.inject({
      url: '/media/videos/v1/video.mp4',
      headers: { range: 'bytes=0-1', 'if-range': '"an-old-version"' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SIXTEEN.toString());
  });

  it('answers 404 in the envelope for a missing key', async () => {
    const res = await app.inject({ url: '/media/videos/v1/nope.mp4' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, data: null, message: 'Media not found', success: false });
  });

  it.each(['/media/videos/..%2F..%2Fetc%2Fpasswd', '/media/videos%2F..%2Fvideos/v1/video.mp4', '/media/.tmp/abc', '/media/videos//v1/video.mp4', '/media/'])(
    'refuses the unsafe path %s',
    async (url) => {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, message: 'Invalid media path', success: false });
    },
  );

  it('never reaches outside storage through dot segments (the URL parser folds them first)', async () => {
    const res = await app.inject({ url: '/media/videos/v1/../../../../etc/passwd' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('root:');
  });
});
