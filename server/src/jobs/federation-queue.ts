import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { FederationMessagesRepository } from './federation-messages.repository.js';
import type { JobHandlers, JobQueue } from './job-types.js';

type Listener = (message: unknown) => Promise<void> | void;

/** A message left behind (its job died with its process on the last attempt) is removed after this long. */
const KEEP_STRANDED_MS = 7 * 24 * 3600_000;
const SWEEP_EVERY_MS = 3600_000;
/** Messages queued between turns given to the rest of the process. */
const YIELD_EVERY = 8;

/**
 * The ActivityPub library's message queue (deliveries to remote inboxes, activities received,
 * fan-outs to followers) on our own job queue: the job table by default, BullMQ with REDIS_URL.
 * So a delivery survives a restart, shows in the admins' queue overview and is retried like any
 * job. The message itself is a row of federation_messages and its job carries the row's id: a
 * delivery's message holds the sending channel's private key, which must not sit in job payloads,
 * the job logs or Redis.
 *
 * The library retries a failed delivery itself, with its own backoff, by enqueueing the message
 * again with a delay; whatever escapes its handler (the database away, the process dying
 * mid-message) is retried by the job queue with its backoff, up to maxAttempts.
 */
export class FederationQueue implements MessageQueue {
  private listener: Listener | null = null;
  private lastSweep = 0;

  constructor(
    private readonly queue: Pick<JobQueue, 'enqueue'>,
    private readonly messages: FederationMessagesRepository,
    private readonly opts: { maxAttempts: number; now?: () => number },
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    const now = (this.opts.now ?? Date.now)();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.messages.deleteOlderThan(now - KEEP_STRANDED_MS);
    }
    const delayMs = options?.delay ? Math.max(0, Math.round(options.delay.total({ unit: 'millisecond' }))) : 0;
    const messageId = await this.messages.insert(message, now);
    await this.queue.enqueue('federation.message', { messageId }, { delayMs, maxAttempts: this.opts.maxAttempts });
  }

  /**
   * A delivery to hundreds of servers queues hundreds of messages at once. On SQLite every write
   * runs on the event loop, so requests (the healthcheck among them) get a turn between every few
   * instead of waiting for all of them.
   */
  async enqueueMany(messages: unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    for (let i = 0; i < messages.length; i++) {
      await this.enqueue(messages[i], options);
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The library calls this once, when its queue starts; the jobs reach the listener through
   * handlers(). Settles when the signal aborts, as the interface asks.
   */
  listen(handler: Listener, options: MessageQueueListenOptions = {}): Promise<void> {
    this.listener = handler;
    return new Promise((resolve) => {
      const stop = () => {
        if (this.listener === handler) this.listener = null;
        resolve();
      };
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener('abort', stop, { once: true });
    });
  }

  /** The job handler, for queue.start. */
  handlers(): Pick<JobHandlers, 'federation.message'> {
    return {
      'federation.message': async ({ messageId }, ctx) => {
        const message = await this.messages.find(messageId);
        // Handled already (a retry after the row went), or swept: nothing left to do.
        if (message === undefined) return;
        // A process that runs jobs before its federation has started listening (or with it off)
        // fails the attempt, and the queue brings the message back after its backoff.
        if (!this.listener) throw new Error('Federation is not listening in this process');
        try {
          await this.listener(message);
        } catch (err) {
          if (ctx.attempt >= this.opts.maxAttempts) await this.messages.delete(messageId);
          throw err;
        }
        await this.messages.delete(messageId);
      },
    };
  }
}
