import type { FastifyInstance } from 'fastify';

/**
 * Fair turns for requests when the event loop is saturated.
 *
 * Much of a request's work is synchronous here (SQLite through better-sqlite3, JSON, hashing), so
 * under heavy traffic one pass of the event loop can spend hundreds of milliseconds running the
 * requests of connections that are already open and busy. A connection that arrives meanwhile is
 * accepted in one pass and read in a later one, and every pass in between serves the busy
 * connections again: a newcomer waited behind several rounds of everyone else, and under a few
 * hundred connections some waited past their clients' 30 s timeouts while the rest were served.
 *
 * So each pass of the loop gets a budget. Requests run at once while the pass has spent less than
 * it; after that, and for as long as any request is waiting, they join one first-come queue that is
 * drained one request per pass. Between two queued requests the loop goes back to its poll phase,
 * accepts and reads what has arrived, and puts it in line behind those that came earlier. On an
 * idle or lightly loaded server nothing is ever queued.
 */
export interface FairTurnsOptions {
  /** Synchronous time a pass of the event loop may spend starting requests before they queue. */
  budgetMs?: number;
  /** Clock; replaced only in tests. */
  now?: () => number;
  /**
   * Requests that never wait for a turn: the healthcheck, whose answer must say how the server is,
   * not how long its queue is (a load balancer that waits behind the queue takes a busy server out).
   */
  exempt?: (url: string) => boolean;
}

export const DEFAULT_TURN_BUDGET_MS = 20;

export interface FairTurns {
  /** Requests waiting for their turn now. */
  waiting(): number;
}

export function registerFairTurns(app: FastifyInstance, options: FairTurnsOptions = {}): FairTurns {
  const budgetMs = options.budgetMs ?? DEFAULT_TURN_BUDGET_MS;
  const now = options.now ?? (() => performance.now());
  const queue: Array<() => void> = [];
  let passStartedAt: number | null = null;

  // setImmediate callbacks run after the poll phase: the end of the current pass.
  const beginPass = () => {
    if (passStartedAt !== null) return;
    passStartedAt = now();
    setImmediate(endPass);
  };
  function endPass() {
    passStartedAt = null;
    const next = queue.shift();
    if (!next) return;
    beginPass();
    next();
  }

  const exempt = options.exempt ?? (() => false);
  app.addHook('onRequest', (request, _reply, done) => {
    if (exempt(request.url)) {
      done();
      return;
    }
    beginPass();
    if (queue.length === 0 && now() - (passStartedAt as number) < budgetMs) {
      done();
      return;
    }
    queue.push(() => done());
  });

  return { waiting: () => queue.length };
}
