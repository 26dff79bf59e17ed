import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerStore, StoredAnswer } from '../lib/answer-store.js';
import type { ProxyTrust } from '../proxy-trust.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth.js';
import type { EarlyResponder } from './front-door.js';
import type { GeneralLimitCount } from './rate-limits.js';
import { requestIdFor, requestIdentity } from './request-identity.js';

/**
 * How many request URLs are remembered with the key of the answer they mean and the headers the app
 * sent with it. A URL not among them (yet) is answered by the app, from the cache after the query's
 * validation.
 */
const MAX_REMEMBERED_URLS = 10_000;

/** The handler's own headers that go with a kept answer; the rest are made again for each request. */
export const KEPT_HEADERS = ['content-type', 'cache-control'] as const;

/**
 * Headers made again for each request, or taken from the kept answer itself: the rest of what the
 * app sent for a URL (its security headers, HSTS on https) is the same for every signed-out caller.
 */
const NOT_REMEMBERED = new Set([
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-cache',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  ...KEPT_HEADERS,
]);

const CREDENTIAL_COOKIE = new RegExp(`(?:^|;)\\s*(?:${ACCESS_COOKIE}|${REFRESH_COOKIE})=`);

/** Anything that could make the caller someone, before any cookie is parsed: any cookie by either name counts. */
export function mayCarryCredentials(headers: IncomingHttpHeaders): boolean {
  const { authorization, cookie } = headers;
  return authorization !== undefined || (cookie !== undefined && CREDENTIAL_COOKIE.test(cookie));
}

interface RememberedUrl {
  /** The key of the answer the URL means (the query as the route's schema parsed it). */
  key: string;
  /** What the app sent with it, as name, value pairs, less NOT_REMEMBERED. */
  headers: readonly string[];
}

export interface EarlyAnswersDeps {
  store: AnswerStore;
  /** TRUST_PROXY's rule, the one Fastify reads requests with. */
  trust: ProxyTrust;
  /** Counts a request against the general per-address limit (null: the URL is not limited). */
  countRequest: (ip: string | undefined, url: string) => Promise<GeneralLimitCount | null>;
  /** Where the one line per request goes, when the app logs requests. */
  log: FastifyBaseLogger | null;
}

/**
 * Kept answers served before Fastify sees the request (see FrontDoor), for URLs the app has answered
 * from the cache or into it before: a repeated signed-out read costs a lookup, a count against the
 * rate limit and a write. What the app's hooks would add is all there: the URL's own headers as the
 * app last sent them, the rate-limit headers from the same count, the request id, the log line.
 * What it skips is what a kept answer does not need: routing, cookies, validation, fair turns.
 *
 * Anything else is left to the app: a request with credentials or an Origin (CORS answers differ
 * per origin), a URL not seen yet, an answer that expired or was dropped by a change, and a request
 * over the limit, which the app then refuses with its own 429.
 */
export class EarlyAnswers {
  private readonly urls = new Map<string, RememberedUrl>();
  /** One copy of each set of headers: a few routes share a handful of sets among thousands of URLs. */
  private readonly headerSets = new Map<string, readonly string[]>();
  private answered = 0;

  constructor(private readonly deps: EarlyAnswersDeps) {}

  /** How many requests were answered here so far. */
  answeredEarly(): number {
    return this.answered;
  }

  /**
   * Remembers a URL the app has just answered with a kept (or now kept) answer, from the request
   * and reply as they leave: a request with an Origin is not remembered, as CORS made its headers.
   */
  remember(request: FastifyRequest, reply: FastifyReply, key: string) {
    if (request.headers.origin !== undefined) return;
    const headers: string[] = [];
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || NOT_REMEMBERED.has(name)) continue;
      if (Array.isArray(value)) for (const v of value) headers.push(name, v);
      else headers.push(name, String(value));
    }
    const url = `${request.protocol}://${request.host}${request.url}`;
    const known = this.urls.get(url);
    if (known && known.key === key && known.headers.join('\n') === headers.join('\n')) return;
    this.urls.delete(url);
    this.urls.set(url, { key, headers: this.shared(headers) });
    if (this.urls.size > MAX_REMEMBERED_URLS) this.urls.delete(this.urls.keys().next().value as string);
  }

  private shared(headers: string[]): readonly string[] {
    const id = headers.join('\n');
    const known = this.headerSets.get(id);
    if (known) return known;
    if (this.headerSets.size >= 64) this.headerSets.clear();
    this.headerSets.set(id, headers);
    return headers;
  }

  readonly respond: EarlyResponder = (req, res, passOn) => {
    if (req.method !== 'GET' || req.headers.origin !== undefined || mayCarryCredentials(req.headers)) return false;
    const who = requestIdentity(req, this.deps.trust);
    const remembered = this.urls.get(`${who.protocol}://${who.host}${req.url}`);
    if (!remembered) return false;
    this.answer(req, res, who.ip, remembered).then(
      (answered) => {
        if (!answered) passOn();
      },
      () => {
        if (!res.headersSent) passOn();
      },
    );
    return true;
  };

  private async answer(req: IncomingMessage, res: ServerResponse, ip: string | undefined, remembered: RememberedUrl): Promise<boolean> {
    const started = performance.now();
    const { answer } = await this.deps.store.lookup(remembered.key);
    if (!answer) return false;
    const url = req.url as string;
    const limit = await this.deps.countRequest(ip, url);
    // The app refuses it, with the headers and envelope of its 429 (counting it once more changes
    // nothing: it is over the limit either way).
    if (limit?.isExceeded) return false;
    const requestId = requestIdFor(req);
    res.writeHead(answer.status, this.headersFor(remembered, answer, limit, requestId));
    res.end(answer.body);
    this.answered += 1;
    this.deps.log?.info(
      {
        reqId: requestId,
        req: { method: req.method, url },
        res: { statusCode: answer.status },
        responseTime: Math.round((performance.now() - started) * 10) / 10,
      },
      'request completed',
    );
    return true;
  }

  private headersFor(remembered: RememberedUrl, answer: StoredAnswer, limit: GeneralLimitCount | null, requestId: string): string[] {
    const headers = [...remembered.headers];
    for (const [name, value] of Object.entries(answer.headers)) headers.push(name, value);
    if (limit) {
      headers.push('x-ratelimit-limit', String(limit.max), 'x-ratelimit-remaining', String(limit.remaining), 'x-ratelimit-reset', String(limit.ttlInSeconds));
    }
    headers.push('x-cache', 'hit', 'x-request-id', requestId, 'content-length', String(answer.body.length));
    return headers;
  }
}
