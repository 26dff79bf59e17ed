import { randomBytes } from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Redis } from 'ioredis';

/** Deletes or extends the lock only while this holder still owns it. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisLockerOptions {
  /** How long a lock lives without being renewed: a crashed holder frees it after this. */
  ttlMs?: number;
  /** How long a request waits for a lock before giving up. */
  acquireTimeoutMs?: number;
  prefix?: string;
}

/**
 * The tus locker for several API processes serving one upload: a Redis key per upload, held with
 * SET NX and renewed while held. As tus asks, a request that wants a held lock asks its holder to
 * let go (a message on a channel the holder listens to), which ends the holder's PATCH cleanly.
 */
export class RedisLocker implements Locker {
  readonly ttlMs: number;
  readonly acquireTimeoutMs: number;
  readonly prefix: string;
  private readonly holders = new Map<string, { token: string; release: RequestRelease }>();
  private subscribed: Promise<unknown> | null = null;

  constructor(
    readonly redis: Redis,
    private readonly subscriber: Redis,
    options: RedisLockerOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.prefix = options.prefix ?? 'reelhouse:tus-lock:';
  }

  newLock(id: string): Lock {
    return new RedisLock(this, id);
  }

  key(id: string) {
    return `${this.prefix}${id}`;
  }

  channel() {
    return `${this.prefix}release`;
  }

  /** Listens for release requests once per process; holders register here. */
  async listen(id: string, token: string, release: RequestRelease) {
    this.subscribed ??= this.subscriber.subscribe(this.channel()).then(() => {
      this.subscriber.on('message', (_channel: string, wanted: string) => void this.holders.get(wanted)?.release());
    });
    await this.subscribed;
    this.holders.set(id, { token, release });
  }

  forget(id: string, token: string) {
    if (this.holders.get(id)?.token === token) this.holders.delete(id);
  }
}

class RedisLock implements Lock {
  private readonly token = randomBytes(12).toString('hex');
  private renewal: NodeJS.Timeout | null = null;

  constructor(
    private readonly locker: RedisLocker,
    private readonly id: string,
  ) {}

  async lock(stopSignal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const { redis, ttlMs, acquireTimeoutMs } = this.locker;
    const key = this.locker.key(this.id);
    const deadline = Date.now() + acquireTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      if (stopSignal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
      if ((await redis.set(key, this.token, 'PX', ttlMs, 'NX')) === 'OK') break;
      // Held elsewhere: ask the holder to finish, then try again shortly.
      if (attempt % 10 === 0) await redis.publish(this.locker.channel(), this.id);
      if (Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.locker.listen(this.id, this.token, requestRelease);
    this.renewal = setInterval(
      () => {
        redis.eval(EXTEND, 1, key, this.token, String(ttlMs)).catch(() => undefined);
      },
      Math.max(1000, Math.floor(ttlMs / 3)),
    );
    this.renewal.unref();
  }

  async unlock(): Promise<void> {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
    this.locker.forget(this.id, this.token);
    await this.locker.redis.eval(RELEASE, 1, this.locker.key(this.id), this.token);
  }
}
