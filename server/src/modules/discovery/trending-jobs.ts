import type { Db, Dialect } from '../../db/client.js';
import type { JobHandlers, JobMap, JobQueue } from '../../jobs/job-types.js';
import type { QueueLogger } from '../../jobs/queue-options.js';
import { TrendingRepository } from './trending.repository.js';

/** How often the trending list is worked out again by default (TRENDING_REFRESH_SECONDS). */
export const TRENDING_REBUILD_MS = 5 * 60_000;

export interface TrendingJobsDeps {
  db: Db;
  dialect: Dialect;
  queue: JobQueue;
  logger: QueueLogger;
  /** How often the list is worked out again: how long a newly popular video may wait to show. */
  everyMs?: number;
  /** The clock; tests inject one. */
  now?: () => number;
}

/**
 * The trending list's rebuild, as a `trending.rebuild` job asked for every `everyMs` by
 * each process that runs jobs. The schedule is cut into turns (`slot`); every process asks for the
 * current turn, and the first job of a turn rebuilds while the others find the list already built
 * in it and do nothing, so several workers cost one rebuild per turn. The rebuild reads what is
 * there when it runs: videos deleted or unlisted meanwhile simply do not take part.
 */
export class TrendingJobs {
  private readonly now: () => number;
  private readonly everyMs: number;
  private readonly trending: TrendingRepository;

  constructor(private readonly deps: TrendingJobsDeps) {
    this.now = deps.now ?? Date.now;
    this.everyMs = deps.everyMs ?? TRENDING_REBUILD_MS;
    this.trending = new TrendingRepository(deps.db, deps.dialect);
  }

  handlers(): JobHandlers {
    return {
      'trending.rebuild': async (payload) => {
        await this.rebuild(payload);
      },
    };
  }

  /** Rebuilds the list unless it was already rebuilt in this job's turn or a later one. */
  async rebuild({ slot }: JobMap['trending.rebuild']): Promise<'rebuilt' | 'already'> {
    const builtAt = await this.trending.builtAt();
    if (builtAt !== null && builtAt >= slot * this.everyMs) return 'already';
    const kept = await this.trending.rebuild(this.now());
    this.deps.logger.info({ kept }, 'trending rebuilt');
    return 'rebuilt';
  }

  /** Asks for a rebuild now and at every turn after; the returned function stops asking. */
  schedule(): () => void {
    const ask = () => {
      const slot = Math.floor(this.now() / this.everyMs);
      // One attempt: a turn that fails is followed by the next one within minutes.
      this.deps.queue
        .enqueue('trending.rebuild', { slot }, { maxAttempts: 1 })
        .catch((err) => this.deps.logger.error({ err }, 'could not ask for a trending rebuild'));
    };
    ask();
    const timer = setInterval(ask, this.everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
