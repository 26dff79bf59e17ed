import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../db/video-access.js';
import type { AnswerStore, StoredAnswer } from '../lib/answer-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A signed-in viewer's answer is the signed-out one with the viewer's own fields put in: this
     * puts them in (see sharedWithViewers).
     */
    viewerPart?: ViewerPart<unknown>;
  }
}

/** What a shared route's own part is told of the request: its parsed params and query. */
export interface SharedRequest {
  params: unknown;
  query: unknown;
}

/**
 * Puts one viewer's own fields into the public answer's data (as the signed-out answer holds it),
 * with one query at most; or says null when their answer is more than that (a channel owner's own
 * list with its hidden videos), and the route's handler then makes it for them as before.
 */
export type ViewerPart<T> = (data: T, viewer: Viewer, request: SharedRequest) => Promise<T | null>;

/**
 * Route config of a public read whose answer to a signed-in viewer is the signed-out one plus a few
 * fields of their own: signed-out visitors get it from the answer cache as `cachedForSignedOut`
 * routes do, and a signed-in viewer gets the same kept answer with `viewerPart`'s fields put in.
 */
export function sharedWithViewers<T>(viewerPart: ViewerPart<T>) {
  return { cachedForSignedOut: true, viewerPart: viewerPart as unknown as ViewerPart<unknown> } as const;
}

/**
 * Route config of a public read whose answer is the same to whoever asks, once signed-out visitors
 * may read it (a like count, the site's public settings): a signed-in viewer gets the kept answer.
 */
export const sameForViewers = sharedWithViewers(async (data: unknown) => data);

/** The kept answer of a public read, or the means to make and keep it, told by the answer cache. */
export interface PublicAnswers {
  store: AnswerStore;
  /**
   * Joins the making of an answer under way, or claims it: `made` when another request made it,
   * `settle` to hand it to the others once this one has made it.
   */
  claim(generation: number, key: string): { settle: (answer: StoredAnswer | null) => void } | { made: Promise<StoredAnswer | null> };
}

interface Envelope {
  data: unknown;
}

/**
 * Answers a signed-in viewer's read of a route with a `viewerPart` from the public answer: the one
 * kept for signed-out visitors when there is one (`x-cache: shared`), else made now by the route's
 * own handler as for a signed-out caller and kept for the next visitor (`x-cache: miss`); then the
 * viewer's fields are put in and the whole is serialised with the route's schema. Returns false when
 * the viewer's answer is not the public one plus their fields (the public read is missing to
 * signed-out visitors, or `viewerPart` says so) or the store cannot be reached: the route's handler
 * then answers as before, with nothing kept.
 */
export async function answerFromPublic(request: FastifyRequest, reply: FastifyReply, viewer: Viewer, key: string, answers: PublicAnswers): Promise<boolean> {
  const { viewerPart } = request.routeOptions.config;
  if (!viewerPart) return false;
  const { generation, answer } = await answers.store.lookup(key);
  let kept = answer;
  let madeHere = false;
  if (!kept) {
    if (generation === null) return false;
    ({ answer: kept, madeHere } = await makePublic(request, reply, key, generation, answers));
    if (!kept) return false;
  }
  const envelope = JSON.parse(kept.body.toString('utf8')) as Envelope;
  const data = await viewerPart(envelope.data, viewer, { params: request.params, query: request.query });
  if (data === null) return false;
  reply.header('x-cache', madeHere ? 'miss' : 'shared');
  reply.code(200).send({ ...envelope, data });
  return true;
}

/**
 * The public answer made by the route's own handler for a caller who is nobody (the request's
 * params and query as they are), serialised by the route's schema and kept as a signed-out
 * visitor's request would keep it. Null when it is not a 200 (the video is missing to signed-out
 * visitors, yet perhaps not to this viewer).
 */
async function makePublic(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  generation: number,
  answers: PublicAnswers,
): Promise<{ answer: StoredAnswer | null; madeHere: boolean }> {
  const claim = answers.claim(generation, key);
  if ('made' in claim) return { answer: await claim.made, madeHere: false };
  let made: StoredAnswer | null = null;
  try {
    const signedOut = Object.create(request, { user: { value: null } }) as FastifyRequest;
    const payload: unknown = await request.routeOptions.handler.call(request.server, signedOut, reply);
    if (reply.statusCode === 200 && payload !== undefined && !reply.sent) {
      made = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(reply.serialize(payload) as string) };
      void answers.store.keep(key, generation, made);
    }
  } catch {
    // Missing or refused to signed-out visitors: the full path answers this viewer.
    made = null;
  } finally {
    claim.settle(made);
  }
  return { answer: made, madeHere: true };
}
