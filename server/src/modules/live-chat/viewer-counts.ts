import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Where the viewer counts of every API process meet. Each process reports its own count per live
 * (its open chat streams); the total of a live is the sum over the processes still reporting.
 */
export interface ViewerCounts {
  /** This process's counts now; a live missing from it has no viewer here any more. */
  report(counts: ReadonlyMap<string, number>): Promise<void>;
  total(videoId: string): Promise<number>;
  close(): Promise<void>;
}

/** One process: its own counts are the totals. */
export class InProcessViewerCounts implements ViewerCounts {
  private counts: ReadonlyMap<string, number> = new Map();

  async report(counts: ReadonlyMap<string, number>): Promise<void> {
    this.counts = new Map(counts);
  }

  async total(videoId: string): Promise<number> {
    return this.counts.get(videoId) ?? 0;
  }

  async close(): Promise<void> {}
}

/** A report older than this is a process that died: it no longer counts. */
export const STALE_REPORT_MS = 15_000;

const keyOf = (videoId: string) => `reelhouse:live-viewers:${videoId}`;

/**
 * Many processes: a hash per live, a field per process holding `count:reportedAt`. A field not
 * refreshed within STALE_REPORT_MS is ignored (and removed) when summing, and the hash expires
 * with its last reporter, so a process that dies stops counting within seconds without anyone
 * having to notice it.
 */
export class RedisViewerCounts implements ViewerCounts {
  private readonly redis: Redis;
  /** The lives this process reported a count for last time: those now missing are taken back. */
  private reported = new Set<string>();

  constructor(
    redisUrl: string,
    private readonly processId: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    this.redis.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'viewer count connection error'));
  }

  async report(counts: ReadonlyMap<string, number>): Promise<void> {
    const at = this.now();
    const batch = this.redis.multi();
    for (const [videoId, n] of counts) {
      batch.hset(keyOf(videoId), this.processId, `${n}:${at}`);
      batch.pexpire(keyOf(videoId), STALE_REPORT_MS);
    }
    for (const videoId of this.reported) if (!counts.has(videoId)) batch.hdel(keyOf(videoId), this.processId);
    this.reported = new Set(counts.keys());
    await batch.exec();
  }

  async total(videoId: string): Promise<number> {
    const fields = await this.redis.hgetall(keyOf(videoId));
    const oldest = this.now() - STALE_REPORT_MS;
    let sum = 0;
    const stale: string[] = [];
    for (const [processId, value] of Object.entries(fields)) {
      const [n, at] = value.split(':').map(Number);
      if (!Number.isFinite(n) || !Number.isFinite(at) || at! < oldest) stale.push(processId);
      else sum += n!;
    }
    if (stale.length) await this.redis.hdel(keyOf(videoId), ...stale);
    return sum;
  }

  /** This process's viewers stop counting at once rather than when their reports go stale. */
  async close(): Promise<void> {
    await this.report(new Map()).catch(() => undefined);
    await this.redis.quit().catch(() => undefined);
  }
}
