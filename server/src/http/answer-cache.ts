import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnswerStore, StoredAnswer } from '../lib/answer-store.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer is the same for every signed-out visitor: it may be served from the answer cache. */
    cachedForSignedOut?: boolean;
  }
  interface FastifyRequest {
    /** Set on a cacheable request that missed: where its answer goes once made. */
    answerFill?: { key: string; generation: number } | undefined;
  }
}

/** Route config of a public read whose answer is the same for every signed-out visitor. */
export const cachedForSignedOut = { cachedForSignedOut: true } as const;

/** The handler's own headers that go with a kept answer; the rest are made again for each request. */
const KEPT_HEADERS = ['content-type', 'cache-control'] as const;

/**
 * Anything that could make the caller someone: an Authorization header of any kind, or an access or
 * refresh cookie, valid or not. Such a request neither gets nor fills a kept answer; an expired
 * token's holder is about to refresh and must see their own page.
 */
export function carriesCredentials(request: FastifyRequest): boolean {
  if (request.user || request.headers.authorization !== undefined) return true;
  const cookies = request.cookies ?? {};
  return cookies[ACCESS_COOKIE] !== undefined || cookies[REFRESH_COOKIE] !== undefined;
}

/**
 * The key of an answer: method, scheme, host (answers may hold absolute URLs), path, and the query
 * as the route's schema parsed it (unknown parameters gone, defaults filled in, in a fixed order),
 * so `?pageNumber=1&pageSize=12` and no query at all share one answer.
 */
export function answerKey(request: FastifyRequest): string {
  const path = request.url.split('?', 1)[0];
  const query = (request.query ?? {}) as Record<string, unknown>;
  const parts = Object.keys(query).sort().filter((k) => query[k] !== undefined).map((k) => `${k}=${JSON.stringify(query[k])}`);
  return `${request.method} ${request.protocol}://${request.host}${path}?${parts.join('&')}`;
}

/**
 * Serves signed-out visitors' reads of routes marked `cachedForSignedOut` from the answer store.
 * The lookup runs as the first preHandler: after every onRequest hook (security headers, CORS,
 * rate limits, the caller) and the query's validation, before the route's handler and its database
 * reads; the response's serialisation is skipped too, since the kept body is the serialised one.
 * Only 200 answers without cookies are kept. `x-cache: hit|miss` tells which it was.
 */
export function registerAnswerCache(app: FastifyInstance, store: AnswerStore) {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' || !request.routeOptions.config.cachedForSignedOut || carriesCredentials(request)) return;
    const key = answerKey(request);
    const { generation, answer } = await store.lookup(key);
    if (answer) {
      reply.header('x-cache', 'hit');
      for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
      return reply.code(answer.status).send(answer.body);
    }
    reply.header('x-cache', 'miss');
    if (generation !== null) request.answerFill = { key, generation };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const fill = request.answerFill;
    if (!fill || reply.statusCode !== 200 || reply.hasHeader('set-cookie')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const headers: StoredAnswer['headers'] = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    // Not awaited: the answer goes out without waiting for it to be kept.
    void store.keep(fill.key, fill.generation, { status: 200, headers, body });
    return body;
  });
}
