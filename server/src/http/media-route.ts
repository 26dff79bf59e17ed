import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cacheControlFor } from '../storage/cache-control.js';
import { assertSafeKey, type ByteRange, contentTypeFor, type Storage } from '../storage/storage.js';
import { AppError, badRequest, notFound } from './errors.js';
import { HotMedia } from './hot-media.js';

type Range = ByteRange | 'unsatisfiable' | null;

/**
 * Parses a Range header against a size. Answers null when the whole file should be sent: no header,
 * a malformed one, or several ranges (allowed by RFC 9110, and players never ask for those).
 */
export function parseRange(header: string | undefined, size: number): Range {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Media keys come from our own code; anything else (climbing out, hidden files like .tmp) is refused. */
function keyOf(request: FastifyRequest): string {
  const key = (request.params as { '*': string })['*'] ?? '';
  try {
    assertSafeKey(key);
  } catch {
    throw badRequest('Invalid media path');
  }
  if (key.split('/').some((part) => part.startsWith('.'))) throw badRequest('Invalid media path');
  // Resumable uploads in progress share the bucket but are their owner's alone.
  if (key.startsWith('uploads/')) throw notFound('Media');
  return key;
}

function notModified(request: FastifyRequest, etag: string | undefined, lastModified: Date | undefined): boolean {
  const inm = request.headers['if-none-match'];
  if (inm !== undefined) {
    if (!etag) return false;
    return inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
  }
  const ims = request.headers['if-modified-since'];
  if (ims && lastModified) {
    const since = Date.parse(ims);
    return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** If-Range: the range applies only while the representation is the one the client has part of. */
function rangeStillValid(request: FastifyRequest, etag: string | undefined, lastModified: Date | undefined): boolean {
  const header = request.headers['if-range'];
  const ifRange = Array.isArray(header) ? header[0] : header;
  if (!ifRange) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return !!etag && ifRange === etag;
  const at = Date.parse(ifRange);
  return !!lastModified && !Number.isNaN(at) && Math.floor(lastModified.getTime() / 1000) * 1000 === at;
}

/**
 * Serves `/media/<key>` from storage: the local media directory, or an S3 bucket proxied through
 * the API when no public media URL is set. Supports byte ranges (players seek with them) and long
 * caching for objects that never change under their key. shareWithOtherSites (a site that
 * federates): the pages of other sites, whose viewers play this site's videos from here, may read
 * them too (hls.js fetches playlists and segments, which needs CORS).
 */
export function mediaRoutes(storage: Storage, hot = new HotMedia(), opts: { shareWithOtherSites?: boolean } = {}) {
  return async function mediaPlugin(app: FastifyInstance) {
    app.route({
      method: ['GET', 'HEAD'],
      url: '/media/*',
      exposeHeadRoute: false,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // A client origin of ALLOWED_ORIGINS keeps the answer its CORS gave it (with credentials); any other page reads as anyone.
        if (opts.shareWithOtherSites && !reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
        const key = keyOf(request);
        const st = await storage.stat(key);
        if (!st) throw notFound('Media');

        const validators = () => {
          reply.header('cache-control', cacheControlFor(key));
          if (st.etag) reply.header('etag', st.etag);
          if (st.lastModified) reply.header('last-modified', st.lastModified.toUTCString());
        };
        if (notModified(request, st.etag, st.lastModified)) {
          validators();
          return reply.status(304).send();
        }

        const range = rangeStillValid(request, st.etag, st.lastModified) ? parseRange(request.headers.range, st.size) : null;
        if (range === 'unsatisfiable') {
          throw new AppError(416, 'RANGE_NOT_SATISFIABLE', 'Requested range not satisfiable', null, {
            'content-range': `bytes */${st.size}`,
          });
        }

        const byName = contentTypeFor(key);
        reply.header('content-type', byName !== 'application/octet-stream' ? byName : st.contentType);
        reply.header('accept-ranges', 'bytes');
        reply.header('x-content-type-options', 'nosniff');
        validators();

        if (range) {
          reply.status(206);
          reply.header('content-range', `bytes ${range.start}-${range.end}/${st.size}`);
          reply.header('content-length', String(range.end - range.start + 1));
        } else {
          reply.header('content-length', String(st.size));
        }
        if (request.method === 'HEAD' || st.size === 0) return reply.send();

        let body;
        try {
          if (!range && hot.holds(key, st)) return reply.send(hot.get(key, st) ?? (await hot.load(key, st, () => storage.read(key))));
          body = await storage.read(key, range ?? undefined);
        } catch (err) {
          // Deleted between stat and read.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound('Media');
          throw err;
        }
        return reply.send(body);
      },
    });
  };
}
