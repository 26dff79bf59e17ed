import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AnswerStore, Lookup, StoredAnswer } from './answer-store.js';

/**
 * Answers and their generation in Redis, shared by every API process and worker of a site: a
 * change made anywhere (a write on another API process, a scheduled video published by a worker)
 * moves the one generation, and the next lookup on any process sees it, since the generation and
 * the answer are read together in one MGET.
 *
 * Redis going away never fails a request: lookups then find nothing and nothing is kept, so
 * answers come from the database; the outage is logged once. Changes told during an outage cannot
 * reach Redis, so the first thing done once it is back is one more change, which drops whatever
 * was kept before it went.
 */
export class RedisAnswerStore implements AnswerStore {
  readonly kind = 'redis' as const;
  private readonly redis: Redis;
  private readonly ttlMs: number;
  private readonly logger: Logger;
  private readonly genKey: string;
  private readonly prefix: string;
  private down = false;
  private changeMissed = false;

  constructor(opts: { redisUrl: string; siteId: string; ttlMs: number; logger: Logger }) {
    this.ttlMs = opts.ttlMs;
    this.logger = opts.logger;
    // Sites sharing one Redis, or test apps on different databases, never see each other's answers.
    this.prefix = `reelhouse:answers:${opts.siteId}:`;
    this.genKey = `${this.prefix}generation`;
    this.redis = new Redis(opts.redisUrl, {
      // Fail at once while disconnected rather than queueing: a request must not wait for Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 1000,
    });
    this.redis.on('error', (err) => this.failed(err));
    this.redis.on('ready', () => {
      if (this.down) this.logger.info('answer cache store reachable again');
      this.down = false;
      if (this.changeMissed) {
        this.changeMissed = false;
        void this.changed();
      }
    });
  }

  private failed(err: unknown) {
    if (this.down) return;
    this.down = true;
    this.logger.warn({ err: { message: (err as Error).message } }, 'answer cache store unreachable; answers come from the database until it is back');
  }

  private answerKey(key: string) {
    return `${this.prefix}${createHash('sha256').update(key).digest('base64url')}`;
  }

  async lookup(key: string): Promise<Lookup> {
    if (this.redis.status !== 'ready') return { generation: null, answer: null };
    try {
      const [gen, value] = await this.redis.mgetBuffer(this.genKey, this.answerKey(key));
      const generation = gen ? Number(gen.toString()) : 0;
      return { generation, answer: value ? decode(value, generation) : null };
    } catch (err) {
      this.failed(err);
      return { generation: null, answer: null };
    }
  }

  async keep(key: string, generation: number, answer: StoredAnswer): Promise<void> {
    if (this.redis.status !== 'ready') return;
    try {
      await this.redis.set(this.answerKey(key), encode(generation, answer), 'PX', this.ttlMs);
    } catch (err) {
      this.failed(err);
    }
  }

  private personalKey(userId: string) {
    return `${this.prefix}personal:${userId}`;
  }

  async personalVersion(userId: string): Promise<number | null> {
    if (this.redis.status !== 'ready') return null;
    try {
      const value = await this.redis.get(this.personalKey(userId));
      return value ? Number(value) : 0;
    } catch (err) {
      this.failed(err);
      return null;
    }
  }

  /**
   * Moves the viewer's version on to the next number of the site's one sequence (in one script, so
   * two changes at once cannot leave the older number last). Numbers never repeat; the viewer's key
   * lives ten TTLs past their last change, after which they are back at 0, and every answer kept
   * under 0 was made before their first change and has long expired.
   */
  async personalChanged(userId: string): Promise<void> {
    try {
      if (this.redis.status !== 'ready') throw new Error(`Redis connection is ${this.redis.status}`);
      await this.redis.eval(NEXT_PERSONAL_VERSION, 2, `${this.prefix}personal-sequence`, this.personalKey(userId), String(this.ttlMs * 10));
    } catch (err) {
      // Like a missed public change: once Redis is back, everything kept before is dropped.
      this.changeMissed = true;
      this.failed(err);
    }
  }

  async changed(): Promise<void> {
    try {
      if (this.redis.status !== 'ready') throw new Error(`Redis connection is ${this.redis.status}`);
      await this.redis.incr(this.genKey);
    } catch (err) {
      this.changeMissed = true;
      this.failed(err);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** KEYS: the site's sequence, the viewer's version; ARGV: how long the viewer's version lives, in ms. */
const NEXT_PERSONAL_VERSION = `
local version = redis.call('INCR', KEYS[1])
redis.call('SET', KEYS[2], version, 'PX', ARGV[1])
return version`;

/** One JSON line (generation, status, headers; JSON never holds a raw newline) and then the body. */
function encode(generation: number, answer: StoredAnswer): Buffer {
  const head = JSON.stringify({ g: generation, s: answer.status, h: answer.headers });
  return Buffer.concat([Buffer.from(`${head}\n`), answer.body]);
}

function decode(value: Buffer, generation: number): StoredAnswer | null {
  const end = value.indexOf(10);
  if (end < 0) return null;
  try {
    const head = JSON.parse(value.subarray(0, end).toString()) as { g: number; s: number; h: Record<string, string> };
    if (head.g !== generation) return null;
    return { status: head.s, headers: head.h, body: value.subarray(end + 1) };
  } catch {
    return null;
  }
}
