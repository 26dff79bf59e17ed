import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LiveIngestControl } from './live.service.js';

const COMMANDS = 'reelhouse:live-ingest:commands';
const replies = (processId: string) => `reelhouse:live-ingest:replies:${processId}`;
/** How long an API process waits for the ingest to stop a broadcast and store its recording. */
const REPLY_TIMEOUT_MS = 120_000;

interface Command {
  id: string;
  action: 'disconnect' | 'end';
  videoId: string;
  replyTo: string;
}

/**
 * What an API process without an ingest of its own (`LIVE_INGEST=off`, the ingest run by
 * `npm run ingest` elsewhere) tells the ingests through Redis: cut an encoder off, or end a
 * broadcast. Every ingest gets each command and answers once it is done (one without that live at
 * once), so `end` returns after the recording is stored, as it does in one process.
 */
export class RedisIngestControl implements LiveIngestControl {
  private readonly publisher: Redis;
  private subscriber: Redis | null = null;
  private subscribed: Promise<unknown> | null = null;
  private readonly processId = randomUUID();
  private readonly pending = new Map<string, () => void>();

  constructor(
    private readonly redisUrl: string,
    private readonly logger: Logger,
  ) {
    this.publisher = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
    this.publisher.on('error', (err) => logger.warn({ err: { message: err.message } }, 'live ingest command connection error'));
  }

  disconnect(videoId: string): Promise<void> {
    return this.send('disconnect', videoId);
  }

  end(videoId: string): Promise<void> {
    return this.send('end', videoId);
  }

  async close(): Promise<void> {
    await Promise.all([this.publisher.quit().catch(() => {}), this.subscriber?.quit().catch(() => {})]);
  }

  private async send(action: Command['action'], videoId: string): Promise<void> {
    await this.listen();
    const id = randomUUID();
    let answered = 0;
    let expected = Infinity;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    this.pending.set(id, () => {
      if (++answered >= expected) done();
    });
    try {
      const command: Command = { id, action, videoId, replyTo: replies(this.processId) };
      // The number of ingests listening: none means nothing can be publishing anywhere.
      expected = await this.publisher.publish(COMMANDS, JSON.stringify(command));
      if (answered >= expected) return;
      const timer = setTimeout(done, REPLY_TIMEOUT_MS);
      await finished;
      clearTimeout(timer);
      if (answered < expected) this.logger.warn({ action, videoId, answered, expected }, 'a live ingest did not answer in time');
    } finally {
      this.pending.delete(id);
    }
  }

  private listen(): Promise<unknown> {
    if (this.subscribed) return this.subscribed;
    const subscriber = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    subscriber.on('error', (err) => this.logger.warn({ err: { message: err.message } }, 'live ingest reply connection error'));
    subscriber.on('message', (_channel: string, message: string) => this.pending.get(message)?.());
    this.subscriber = subscriber;
    this.subscribed = subscriber.subscribe(replies(this.processId));
    return this.subscribed;
  }
}

/**
 * The ingest's side: carries out the commands API processes send through Redis on this process's
 * own ingest, and answers each. Returns the function that stops listening.
 */
export async function obeyIngestCommands(redisUrl: string, control: LiveIngestControl, logger: Logger): Promise<() => Promise<void>> {
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  for (const connection of [subscriber, publisher]) {
    connection.on('error', (err) => logger.warn({ err: { message: err.message } }, 'live ingest command connection error'));
  }
  subscriber.on('message', (_channel: string, message: string) => {
    let command: Command;
    try {
      command = JSON.parse(message) as Command;
    } catch {
      return;
    }
    const run = command.action === 'end' ? control.end(command.videoId) : control.disconnect(command.videoId);
    void run
      .catch((err: unknown) => logger.error({ err, command }, 'a live ingest command failed'))
      .then(() => publisher.publish(command.replyTo, command.id))
      .catch((err: unknown) => logger.warn({ err }, 'answering a live ingest command failed'));
  });
  await subscriber.subscribe(COMMANDS);
  return async () => {
    await Promise.all([subscriber.quit().catch(() => {}), publisher.quit().catch(() => {})]);
  };
}
