import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerStore, StoredAnswer } from '../lib/answer-store.js';
import type { ProxyTrust } from '../proxy-trust.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth.js';
import { EarlyAnswers, KEPT_HEADERS } from './early-answers.js';
import { generalLimitCounter } from './rate-limits.js';
import { answerFromPublic, type PublicAnswers } from './shared-answers.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The answer is the same for every signed-out visitor: it may be served from the answer cache. */
    cachedForSignedOut?: boolean;
    /**
     * The answer depends on who is signed in and on public data alone, and every write that could
     * change it is a public change (following a channel is one): it may be kept for its viewer.
     * `'own'`: it is also made of the viewer's own data (their notifications), and every write to
     * that is told as their personal change; it is kept under their personal version too.
     */
    cachedForItsViewer?: boolean | 'own';
  }
  interface FastifyRequest {
    /** Set on a cacheable request that missed: where its answer goes once made. */
    answerFill?: { key: string; generation: number; flight: string } | undefined;
    /** Set on a cacheable request: the key of the answer it means. */
    answerKey?: string | undefined;
  }
  interface FastifyInstance {
    /** How many requests the early answers served before the app saw them (with the answer cache on). */
    answeredEarly?: () => number;
  }
}

/** Route config of a public read whose answer is the same for every signed-out visitor. */
export const cachedForSignedOut = { cachedForSignedOut: true } as const;

/** Route config of a signed-in read made of public data for its viewer (see cachedForItsViewer). */
export const cachedForItsViewer = { cachedForItsViewer: true } as const;

/** Route config of a signed-in read of the viewer's own data, told as personal changes (see cachedForItsViewer). */
export const cachedForItsViewerOwn = { cachedForItsViewer: 'own' } as const;

/** How long requests wait for an answer another request is making before making their own. */
const FLIGHT_PATIENCE_MS = 10_000;

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
  const parts = Object.keys(query)
    .sort()
    .filter((k) => query[k] !== undefined)
    .map((k) => `${k}=${JSON.stringify(query[k])}`);
  return `${request.method} ${request.protocol}://${request.host}${path}?${parts.join('&')}`;
}

function serveKept(reply: FastifyReply, answer: StoredAnswer) {
  reply.header('x-cache', 'hit');
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  return reply.code(answer.status).send(answer.body);
}

/**
 * Serves signed-out visitors' reads of routes marked `cachedForSignedOut` from the answer store,
 * skipping the route's handler, its database reads and the response's serialisation (the kept body
 * is the serialised one). Only 200 answers without cookies are kept. `x-cache: hit|miss` tells
 * which it was. Routes marked `cachedForItsViewer` are kept the same way for each signed-in viewer,
 * under a key that starts with the viewer's id.
 *
 * The key is the query as the route's schema parsed it, so the app finds a kept answer in the first
 * preHandler, after validation. Each URL it answers from the cache or into it is remembered with its
 * key and headers, and the returned EarlyAnswers serves that URL next time before the app sees the
 * request (the FrontDoor in front of the server asks it first).
 */
export function registerAnswerCache(app: FastifyInstance, store: AnswerStore, options: { trust: ProxyTrust; logRequests: boolean }): EarlyAnswers {
  const early = new EarlyAnswers({
    store,
    trust: options.trust,
    countRequest: generalLimitCounter(app),
    log: options.logRequests ? app.log : null,
  });
  const flights = new Flights(FLIGHT_PATIENCE_MS);
  const publicAnswers: PublicAnswers = {
    store,
    claim: (generation, key) => {
      const claim = flights.claim(generation, key);
      return 'made' in claim ? claim : { settle: (answer) => flights.settle(claim.flight, answer) };
    },
  };

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET') return;
    const { config } = request.routeOptions;
    let key: string;
    if (config.viewerPart && request.user) {
      // Answered from the public answer with the viewer's fields put in, when that is their answer.
      if (await answerFromPublic(request, reply, request.user, answerKey(request), publicAnswers)) return reply;
      return;
    }
    if (config.cachedForSignedOut && !carriesCredentials(request)) {
      key = answerKey(request);
      // Remembered for the early answers only when the route's own limit is not in the way: the
      // early answers count the general limit alone.
      if (!config.rateLimit) request.answerKey = key;
    } else if (config.cachedForItsViewer && request.user) {
      // The caller was read from a live session before this hook: a signed-out or revoked caller
      // never gets here, and is refused by the route as before.
      let own = '';
      if (config.cachedForItsViewer === 'own') {
        const version = await store.personalVersion(request.user.id);
        if (version === null) return;
        own = ` own ${version}`;
      }
      key = `viewer ${request.user.id}${own} ${answerKey(request)}`;
    } else return;
    const { generation, answer } = await store.lookup(key);
    if (answer) return serveKept(reply, answer);
    if (generation !== null) {
      // Only the first to miss makes the answer the others wait for; one whose wait came to
      // nothing makes its own without keeping it.
      const claim = flights.claim(generation, key);
      if ('flight' in claim) request.answerFill = { key, generation, flight: claim.flight };
      else {
        const shared = await claim.made;
        if (shared) return serveKept(reply, shared);
      }
    }
    reply.header('x-cache', 'miss');
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const fill = request.answerFill;
    if (!fill) {
      if (request.answerKey !== undefined && reply.statusCode === 200 && reply.getHeader('x-cache') === 'hit')
        early.remember(request, reply, request.answerKey);
      return done(null, payload);
    }
    if (reply.statusCode !== 200 || reply.hasHeader('set-cookie') || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      flights.settle(fill.flight, null);
      return done(null, payload);
    }
    const headers: StoredAnswer['headers'] = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const made: StoredAnswer = { status: 200, headers, body };
    flights.settle(fill.flight, made);
    // Not awaited: the answer goes out without waiting for it to be kept.
    void store.keep(fill.key, fill.generation, made);
    if (request.answerKey !== undefined) early.remember(request, reply, request.answerKey);
    done(null, body);
  });

  // An answer that never reached onSend (the client went away first) lets its waiters go.
  const letGo = (request: FastifyRequest, done: () => void) => {
    if (request.answerFill) flights.settle(request.answerFill.flight, null);
    done();
  };
  app.addHook('onResponse', (request, _reply, done) => letGo(request, done));
  app.addHook('onRequestAbort', (request, done) => letGo(request, done));
  return early;
}

/**
 * Answers being made, so that when a popular one is missing (it expired, or a change dropped it)
 * the requests that ask for it meanwhile wait for the one being made instead of each running the
 * same queries: after a change, fifty visitors of the home page cost one query, not fifty.
 * Per process; an answer that takes longer than `patienceMs` lets its waiters make their own.
 */
class Flights {
  private readonly pending = new Map<string, { made: Promise<StoredAnswer | null>; settle: (answer: StoredAnswer | null) => void }>();
  constructor(private readonly patienceMs: number) {}

  /**
   * Joins the making of this answer, or claims it when no one is making it: checked and claimed in
   * one step, so of requests that miss together exactly one makes it.
   */
  claim(generation: number, key: string): { flight: string } | { made: Promise<StoredAnswer | null> } {
    const id = `${generation} ${key}`;
    const pending = this.pending.get(id);
    if (pending) return { made: pending.made };
    let settle!: (answer: StoredAnswer | null) => void;
    const made = new Promise<StoredAnswer | null>((resolve) => {
      settle = resolve;
    });
    const timer = setTimeout(() => this.settle(id, null), this.patienceMs);
    timer.unref();
    this.pending.set(id, {
      made,
      settle: (answer) => {
        clearTimeout(timer);
        settle(answer);
      },
    });
    return { flight: id };
  }

  settle(id: string, answer: StoredAnswer | null) {
    const flight = this.pending.get(id);
    if (!flight) return;
    this.pending.delete(id);
    flight.settle(answer);
  }
}
