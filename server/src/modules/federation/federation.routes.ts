import type { Federation } from '@fedify/fedify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, notFound, tooManyRequests } from '../../http/errors.js';
import type { AnswerStore } from '../../lib/answer-store.js';

/** Every address the ActivityPub side answers at; the documents of activitypub.ts all live under /ap/. */
const ROUTES = ['/.well-known/webfinger', '/.well-known/nodeinfo', '/nodeinfo/2.1', '/ap/*'] as const;

/**
 * A channel's actor document (with its key) is kept in the site's answer store and answered again
 * as it was made, until the store's time runs out or anything public changes (a rename, a new
 * avatar, a ban). A delivery to many servers has each of them fetch the sending channel's actor to
 * check its signature, all within seconds; making the document is JSON-LD work on the event loop,
 * done once instead of once per server.
 */
const ACTOR_PATH = /^\/ap\/channels\/[^/?#]+$/;

/** Marks the library's "no such document", so the site's own 404 envelope answers it. */
const NOT_FOUND = 599;

/**
 * Hands WebFinger, NodeInfo and the actors, inboxes, outboxes, collections and objects to the
 * library as web requests, and sends back what it answers. The body stays the bytes that arrived:
 * an inbox's signature covers their digest. Request URLs are rebuilt on PUBLIC_URL, the address
 * other servers signed them for and the one every id is built on.
 */
export async function federationRoutes(
  app: FastifyInstance,
  {
    federation,
    publicUrl,
    blocked,
    answers,
    perDomainPerMinute,
    logger,
  }: {
    federation: Federation<void>;
    publicUrl: string;
    /** Activities one remote server may post a minute, counted by the host of the key it signs with. */
    perDomainPerMinute: number;
    /** Whether an address is on a server admins blocked. */
    blocked: (address: string) => Promise<boolean>;
    /** The site's answer store (http/answer-cache.ts's), where actor documents are kept. */
    answers: Pick<AnswerStore, 'lookup' | 'keep'>;
    logger: { warn(obj: object, msg?: string): void };
  },
) {
  // Whatever content type arrives (application/activity+json, ld+json, json), the raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // Counted in the rate limits' store (Redis when scaled out), so every API process shares one count per server.
  const perDomain = app.createRateLimit({
    max: perDomainPerMinute,
    timeWindow: '1 minute',
    // The site-wide limits skip everything outside /api/; this one is for the inboxes.
    allowList: () => false,
    keyGenerator: (request: FastifyRequest) => `federation-domain:${hostOf(signingKeyOf(request)) ?? request.ip}`,
  });

  const keptKey = (request: FastifyRequest) =>
    request.method === 'GET' && ACTOR_PATH.test(request.url) && !request.headers.authorization && !request.headers.signature
      ? `ap-actor ${request.url} ${request.headers.accept ?? ''}`
      : null;

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const cacheKey = keptKey(request);
    const found = cacheKey ? await answers.lookup(cacheKey) : null;
    if (found?.answer) {
      reply.status(found.answer.status);
      for (const [name, value] of Object.entries(found.answer.headers)) reply.header(name, value);
      return reply.send(found.answer.body);
    }
    // What a blocked server sends is refused before it is read: the key it signed with names it.
    const key = request.method === 'POST' ? signingKeyOf(request) : null;
    if (key && (await blocked(key))) {
      logger.warn({ key }, 'an activity from a blocked server was refused');
      throw forbidden('This server is blocked here');
    }
    if (request.method === 'POST') {
      // One server flooding the inboxes waits its turn; well-behaved servers try again after Retry-After.
      const count = await perDomain(request);
      if (!count.isAllowed && count.isExceeded) {
        logger.warn({ key }, 'a remote server posted more activities than its limit');
        throw tooManyRequests(Math.max(1, count.ttlInSeconds));
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const v of [value].flat()) headers.append(name, v);
    }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : (request.body as Buffer | undefined);
    const answer = await federation.fetch(new Request(new URL(request.url, publicUrl), { method: request.method, headers, body }), {
      contextData: undefined,
      onNotFound: () => new Response(null, { status: NOT_FOUND }),
      // An actor or video asked for as a web page: the document names the site's own page as its url.
      onNotAcceptable: () => new Response(null, { status: 406, headers: { vary: 'Accept' } }),
    });
    if (answer.status === NOT_FOUND) throw notFound('Federation document');
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      answerHeaders[name] = value;
    });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    if (cacheKey && found?.generation != null && answer.status === 200) {
      await answers.keep(cacheKey, found.generation, { status: 200, headers: answerHeaders, body: answerBody });
    }
    reply.status(answer.status);
    for (const [name, value] of Object.entries(answerHeaders)) reply.header(name, value);
    return reply.send(answerBody);
  };
  // Other servers' protocol, not the site's API: kept out of the OpenAPI document.
  for (const url of ROUTES) app.route({ method: ['GET', 'POST'], url, schema: { hide: true }, handler: handle });
}

function hostOf(address: string | null): string | null {
  if (!address) return null;
  try {
    return new URL(address).host.toLowerCase();
  } catch {
    return null;
  }
}

/** The key a request says it is signed with (draft-cavage `Signature` or RFC 9421 `Signature-Input`), or null. */
function signingKeyOf(request: FastifyRequest): string | null {
  const header = [request.headers.signature, request.headers['signature-input']].flat().filter(Boolean).join(',');
  return /keyId="([^"]+)"/i.exec(header)?.[1] ?? null;
}
