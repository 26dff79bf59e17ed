import { EventEmitter } from 'node:events';
import type { NotificationEvent } from '@reelhouse/contract';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Carries a new notification to the open streams of its recipient. Whichever process creates it
 * (an API process answering a comment, a worker finishing an upload) publishes; every API process
 * delivers to the streams it holds. In-process on one machine, Redis pub/sub when REDIS_URL is set.
 */
export interface NoticeBus {
  publish(userId: string, event: NotificationEvent): Promise<void>;
  /** Listens for one user's notices; returns the function that stops listening. */
  subscribe(userId: string, listener: (event: NotificationEvent) => void): () => void;
  /** Resolves once this process receives what is published (Redis: its subscription is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class InProcessNoticeBus implements NoticeBus {
  protected readonly local = new EventEmitter().setMaxListeners(0);

  async publish(userId: string, event: NotificationEvent): Promise<void> {
    this.deliver(userId, event);
  }

  protected deliver(userId: string, event: NotificationEvent): void {
    this.local.emit(userId, event);
  }

  subscribe(userId: string, listener: (event: NotificationEvent) => void): () => void {
    this.local.on(userId, listener);
    return () => this.local.off(userId, listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.local.removeAllListeners();
  }
}

const CHANNEL = 'reelhouse:notifications';

/**
 * One channel for all users: each process gets every notice and hands it to the streams it holds.
 * The subscriber connection is opened on the first listener, so workers (which only publish) never
 * open one.
 */
export class RedisNoticeBus extends InProcessNoticeBus {
  private readonly publisher: Redis;
  private subscriber: Redis | null = null;

  constructor(
    private readonly redisUrl: string,
    private readonly logger: Logger,
  ) {
    super();
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    // ioredis reconnects by itself; without a listener each failed attempt is an unhandled error event.
    this.publisher.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'notification publisher connection error'));
  }

  override async publish(userId: string, event: NotificationEvent): Promise<void> {
    await this.publisher.publish(CHANNEL, JSON.stringify({ userId, event }));
  }

  override subscribe(userId: string, listener: (event: NotificationEvent) => void): () => void {
    this.listen();
    return super.subscribe(userId, listener);
  }

  override async ready(): Promise<void> {
    this.listen();
    await this.subscribed;
  }

  private subscribed: Promise<unknown> = Promise.resolve();

  private listen(): void {
    if (this.subscriber) return;
    const sub = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber = sub;
    sub.on('message', (_channel: string, message: string) => {
      try {
        const { userId, event } = JSON.parse(message) as { userId: string; event: NotificationEvent };
        this.deliver(userId, event);
      } catch (err) {
        this.logger.warn({ err }, 'unreadable notification message');
      }
    });
    sub.on('error', (err) => this.logger.warn({ err }, 'notification subscriber connection error'));
    this.subscribed = sub.subscribe(CHANNEL).catch((err) => this.logger.error({ err }, 'could not subscribe to notifications'));
  }

  override async close(): Promise<void> {
    await super.close();
    await Promise.all([this.publisher.quit().catch(() => undefined), this.subscriber?.quit().catch(() => undefined)]);
  }
}

export function createNoticeBus(redisUrl: string | null, logger: Logger): NoticeBus {
  return redisUrl ? new RedisNoticeBus(redisUrl, logger) : new InProcessNoticeBus();
}
