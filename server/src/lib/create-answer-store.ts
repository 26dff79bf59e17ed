import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { type AnswerStore, MemoryAnswerStore } from './answer-store.js';
import { RedisAnswerStore } from './redis-answer-store.js';

/**
 * The answer store of one process (API or worker): in its own memory on one machine, in Redis when
 * REDIS_URL is set so that every process serves and drops the same answers. Turned off, it keeps
 * nothing (services still tell their changes; nobody listens). `siteId` names the site's keys in a
 * shared Redis.
 */
export function createAnswerStore(config: Config, siteId: string, logger: Logger): AnswerStore {
  const { enabled, maxBytes, ttlMs } = config.answerCache;
  if (enabled && config.redisUrl) return new RedisAnswerStore({ redisUrl: config.redisUrl, siteId, ttlMs, logger });
  return new MemoryAnswerStore({ maxBytes: enabled ? maxBytes : 0, ttlMs });
}
