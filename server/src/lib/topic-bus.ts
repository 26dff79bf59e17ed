import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Carries events, each about one topic (a user, a live), to the listeners of that topic in every
 * process: whichever process publishes, each delivers to the listeners it holds. In-process on one
 * machine, Redis pub/sub on one channel when REDIS_URL is set.
 */
export interface TopicBus<T> {
  publish(topic: string, event: T): Promise<void>;
  /** Listens for one topic's events; returns the function that stops listening. */
  subscribe(topic: string, listener: (event: T) => void): () => void;
  /** Resolves once this process receives what is published (Redis: its subscription is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class InProcessTopicBus<T> implements TopicBus<T> {
  protected readonly local = new EventEmitter().setMaxListeners(0);

  async publish(topic: string, event: T): Promise<void> {
    this.deliver(topic, event);
  }

  protected deliver(topic: string, event: T): void {
    this.local.emit(topic, event);
  }

  subscribe(topic: string, listener: (event: T) => void): () => void {
    this.local.on(topic, listener);
    return () => this.local.off(topic, listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.local.removeAllListeners();
  }
}

/**
 * One Redis channel for every topic: each process gets every event and hands it to the listeners it
 * holds. The subscriber connection is opened on the first listener, so a process that only publishes
 * (a worker, an ingest) never opens one.
 */
export class RedisTopicBus<T> extends InProcessTopicBus<T> {
  private readonly publisher: Redis;
  private subscriber: Redis | null = null;
  private subscribed: Promise<unknown> = Promise.resolve();

  /** `what` names the events in the log ("notification", "live chat"). */
  constructor(
    private readonly redisUrl: string,
    private readonly channel: string,
    private readonly what: string,
    private readonly logger: Logger,
  ) {
    super();
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    // ioredis reconnects by itself; without a listener each failed attempt is an unhandled error event.
    this.publisher.on('error', (err) => this.logger.warn({ err: { message: err.message } }, `${what} publisher connection error`));
  }

  override async publish(topic: string, event: T): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify({ topic, event }));
  }

  override subscribe(topic: string, listener: (event: T) => void): () => void {
    this.listen();
    return super.subscribe(topic, listener);
  }

  override async ready(): Promise<void> {
    this.listen();
    await this.subscribed;
  }

  private listen(): void {
    if (this.subscriber) return;
    const sub = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber = sub;
    sub.on('message', (_channel: string, message: string) => {
      try {
        const { topic, event } = JSON.parse(message) as { topic: string; event: T };
        this.deliver(topic, event);
      } catch (err) {
        this.logger.warn({ err }, `unreadable ${this.what} message`);
      }
    });
    sub.on('error', (err) => this.logger.warn({ err: { message: err.message } }, `${this.what} subscriber connection error`));
    this.subscribed = sub.subscribe(this.channel).catch((err) => this.logger.error({ err }, `could not subscribe to the ${this.what} channel`));
  }

  override async close(): Promise<void> {
    await super.close();
    await Promise.all([this.publisher.quit().catch(() => undefined), this.subscriber?.quit().catch(() => undefined)]);
  }
}

export function createTopicBus<T>(redisUrl: string | null, channel: string, what: string, logger: Logger): TopicBus<T> {
  return redisUrl ? new RedisTopicBus<T>(redisUrl, channel, what, logger) : new InProcessTopicBus<T>();
}
