import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { tooManyRequests } from './errors.js';

export interface RateLimitSettings {
  generalPerMinute: number;
  /** With Redis every API process counts against one shared limit; without, each process keeps its own. */
  redisUrl: string | null;
  /** Key prefix in Redis, so that several sites can share one server. */
  redisPrefix?: string;
}

/**
 * Per-address limits on every API route (routes set their own with `config.rateLimit`). Counted in
 * Redis when REDIS_URL is set, so N processes behind a load balancer allow the limit once, not N
 * times. If Redis cannot be reached the limit is skipped rather than the site going down with it.
 */
export async function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings) {
  let redis: Redis | null = null;
  if (settings.redisUrl) {
    redis = new Redis(settings.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false });
    redis.on('error', (err) => app.log.warn({ err: { message: err.message } }, 'rate-limit store unreachable; limits are skipped until it is back'));
    app.addHook('onClose', async () => {
      await redis?.quit().catch(() => redis?.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: true,
    max: settings.generalPerMinute,
    timeWindow: '1 minute',
    allowList: (request) => !request.url.startsWith('/api/'),
    errorResponseBuilder: (_request, context) => tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
    ...(redis ? { redis, nameSpace: settings.redisPrefix ?? 'reelhouse:rate:', skipOnError: true } : {}),
  });
}

/**
 * One account's sign-in attempts, whatever address they come from: the key is a hash of the email.
 * A preHandler (the body is parsed by then) on top of the route's per-address limit; the plugin
 * runs one limit per request, so this one is checked by hand.
 */
export function perAccountSignInLimit(app: FastifyInstance, maxPerHour: number) {
  const check = app.createRateLimit({
    max: maxPerHour,
    timeWindow: '1 hour',
    keyGenerator: (request: FastifyRequest) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      const normalized = typeof email === 'string' ? email.trim().toLowerCase() : '';
      return `signin-account:${createHash('sha256').update(normalized).digest('base64url').slice(0, 32)}`;
    },
  });
  return async (request: FastifyRequest) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) throw tooManyRequests(Math.max(1, result.ttlInSeconds));
  };
}

/**
 * At most `maxPerHour` requests an hour for one key the request names (an email address, an
 * account), whatever address they come from; the key is kept as a hash. A preHandler, like the one
 * above.
 */
export function hourlyLimitBy(app: FastifyInstance, maxPerHour: number, name: string, keyOf: (request: FastifyRequest) => string) {
  const check = app.createRateLimit({
    max: maxPerHour,
    timeWindow: '1 hour',
    keyGenerator: (request: FastifyRequest) => `${name}:${createHash('sha256').update(keyOf(request)).digest('base64url').slice(0, 32)}`,
  });
  return async (request: FastifyRequest) => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) throw tooManyRequests(Math.max(1, result.ttlInSeconds));
  };
}

/** Where a request stands against the general per-address limit once counted (the plugin's headers). */
export interface GeneralLimitCount {
  max: number;
  remaining: number;
  ttlInSeconds: number;
  isExceeded: boolean;
}

/**
 * Counts a request against the general per-address limit, in the same store and under the same key
 * as the plugin's own check, for a request answered before Fastify made its request object. Only
 * what the plugin reads of a request is given: the address its default key is made from and the URL
 * its allow-list looks at.
 */
export function generalLimitCounter(app: FastifyInstance): (ip: string | undefined, url: string) => Promise<GeneralLimitCount | null> {
  const count = app.createRateLimit();
  return async (ip, url) => {
    const seen = { ip, url, routeOptions: { config: {} } } as unknown as FastifyRequest;
    const counted = await count(seen);
    // Null for a URL the limit leaves alone (the allow-list): such an answer carries no limit headers.
    if (counted.isAllowed) return null;
    return { max: counted.max, remaining: counted.remaining, ttlInSeconds: counted.ttlInSeconds, isExceeded: counted.isExceeded };
  };
}
