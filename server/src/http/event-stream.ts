import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

type Emit = (event: string, data: unknown) => void;

export interface EventStreamOptions {
  /** The open streams of the app, each by its `end`: the server ends them all when it closes. */
  streams: Set<() => void>;
  logger: Logger;
  /** What the stream is, for the logs. */
  name: string;
  /**
   * Subscribes to what the stream carries, telling it through `emit`, and answers the `ready`
   * event's data and what undoes the subscription when the stream ends. A failure here (undoing what
   * it did) answers the request with the error, as any route.
   */
  start(emit: Emit): Promise<{ ready: unknown; stop(): void }>;
}

/**
 * Turns the request into a server-sent event stream: `ready` first, then whatever `start` emits.
 * What is emitted before the client has `ready` is held and sent right after it, so that nothing
 * said once the client saw `ready` is missed. The headers the hooks set (CORS, security) are kept;
 * the stream ends when the client goes or the server closes.
 */
export async function openEventStream(request: FastifyRequest, reply: FastifyReply, opts: EventStreamOptions): Promise<void> {
  const held: [string, unknown][] = [];
  let send: Emit | null = null;
  const started = await opts.start((event, data) => {
    if (send) send(event, data);
    else held.push([event, data]);
  });
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  const write: Emit = (event, data) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  // Tells the browser how long to wait before reconnecting after a drop.
  raw.write('retry: 3000\n\n');
  write('ready', started.ready);
  for (const [event, data] of held.splice(0)) write(event, data);
  send = write;
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    started.stop();
    opts.streams.delete(end);
    if (!raw.writableEnded) raw.end();
  };
  opts.streams.add(end);
  request.raw.on('close', end);
  raw.on('error', (err) => {
    opts.logger.debug({ err }, `${opts.name} stream error`);
    end();
  });
}
