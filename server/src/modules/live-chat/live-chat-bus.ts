import { EventEmitter } from 'node:events';
import type { ChatMessage, LiveStatusEvent } from '@reelhouse/contract';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What happens in a live's chat that every open stream of it hears. */
export type ChatEvent = { type: 'message'; message: ChatMessage } | { type: 'deleted'; _id: string } | { type: 'status'; status: LiveStatusEvent['status'] };

/**
 * Carries a live's chat events to its open streams on every API process: whichever process
 * stores a message (or ends the live) publishes; each process delivers to the streams it holds.
 * In-process on one machine, Redis pub/sub on a channel of its own when REDIS_URL is set.
 */
export interface LiveChatBus {
  publish(videoId: string, event: ChatEvent): Promise<void>;
  /** Listens for one live's events; returns the function that stops listening. */
  subscribe(videoId: string, listener: (event: ChatEvent) => void): () => void;
  /** Resolves once this process receives what is published (Redis: its subscription is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class InProcessLiveChatBus implements LiveChatBus {
  protected readonly local = new EventEmitter().setMaxListeners(0);

  async publish(videoId: string, event: ChatEvent): Promise<void> {
    this.deliver(videoId, event);
  }

  protected deliver(videoId: string, event: ChatEvent): void {
    this.local.emit(videoId, event);
  }

  subscribe(videoId: string, listener: (event: ChatEvent) => void): () => void {
    this.local.on(videoId, listener);
    return () => this.local.off(videoId, listener);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.local.removeAllListeners();
  }
}

const CHANNEL = 'reelhouse:live-chat';

/** One channel for every live: each process gets every event and hands it to the streams it holds. */
export class RedisLiveChatBus extends InProcessLiveChatBus {
  private readonly publisher: Redis;
  private subscriber: Redis | null = null;
  private subscribed: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redisUrl: string,
    private readonly logger: Logger,
  ) {
    super();
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    // ioredis reconnects by itself; without a listener each failed attempt is an unhandled error event.
    this.publisher.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'live chat publisher connection error'));
  }

  override async publish(videoId: string, event: ChatEvent): Promise<void> {
    await this.publisher.publish(CHANNEL, JSON.stringify({ videoId, event }));
  }

  override subscribe(videoId: string, listener: (event: ChatEvent) => void): () => void {
    this.listen();
    return super.subscribe(videoId, listener);
  }

  override async ready(): Promise<void> {
    this.listen();
    await this.subscribed;
  }

  /** The subscriber connection is opened on the first listener: a process nobody watches from never opens one. */
  private listen(): void {
    if (this.subscriber) return;
    const sub = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber = sub;
    sub.on('message', (_channel: string, message: string) => {
      try {
        const { videoId, event } = JSON.parse(message) as { videoId: string; event: ChatEvent };
        this.deliver(videoId, event);
      } catch (err) {
        this.logger.warn({ err }, 'unreadable live chat message');
      }
    });
    sub.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'live chat subscriber connection error'));
    this.subscribed = sub.subscribe(CHANNEL).catch((err) => this.logger.error({ err }, 'could not subscribe to the live chat'));
  }

  override async close(): Promise<void> {
    await super.close();
    await Promise.all([this.publisher.quit().catch(() => undefined), this.subscriber?.quit().catch(() => undefined)]);
  }
}

export function createLiveChatBus(redisUrl: string | null, logger: Logger): LiveChatBus {
  return redisUrl ? new RedisLiveChatBus(redisUrl, logger) : new InProcessLiveChatBus();
}
