import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { JobHandlers, JobQueue } from './job-types.js';

type Listener = (message: unknown) => Promise<void> | void;

/**
 * The ActivityPub library's message queue (deliveries to remote inboxes, activities received,
 * fan-outs to followers) on our own job queue: the job table by default, BullMQ with REDIS_URL.
 * So a delivery survives a restart, shows in the admins' queue overview and is retried like any
 * job. The library retries a failed delivery itself, with its own backoff, by enqueueing the
 * message again with a delay; whatever escapes its handler (the database away, the process dying
 * mid-message) is retried by the job queue with its backoff.
 */
export class FederationQueue implements MessageQueue {
  private listener: Listener | null = null;

  constructor(
    private readonly queue: Pick<JobQueue, 'enqueue'>,
    private readonly opts: { maxAttempts?: number } = {},
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    const delayMs = options?.delay ? Math.max(0, Math.round(options.delay.total({ unit: 'millisecond' }))) : 0;
    await this.queue.enqueue('federation.message', { message }, { delayMs, maxAttempts: this.opts.maxAttempts });
  }

  async enqueueMany(messages: unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    for (const message of messages) await this.enqueue(message, options);
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
      'federation.message': async ({ message }) => {
        // A process that runs jobs before its federation has started listening (or with it off)
        // fails the attempt, and the queue brings the message back after its backoff.
        if (!this.listener) throw new Error('Federation is not listening in this process');
        await this.listener(message);
      },
    };
  }
}
