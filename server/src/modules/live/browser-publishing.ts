import { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { runBrowserRelay } from '../../media/browser-relay.js';
import type { MediaTools } from '../../media/media-tools.js';

export interface BrowserPublishingDeps {
  tools: MediaTools;
  logger: Logger;
  /** The site's RTMP ingest (this process's own, or LIVE_RTMP_URL's), where the relay publishes with the live's key. */
  rtmpUrl(streamKey: string): string;
}

/** WebSocket close codes: 4000 + the HTTP status a refusal would have had; the reason is shown on the page. */
export const CLOSE = {
  stopped: 1000,
  failed: 1011,
  tooMuch: 1009,
  refused: (status: number) => 4000 + status,
} as const;

const PING_EVERY_MS = 20_000;

/** What the browser may send ahead of what the relay has taken before it is cut off (a stalled ffmpeg). */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/**
 * A browser publishing a live: what its MediaRecorder makes arrives in chunks over a WebSocket and
 * is piped into an ffmpeg that publishes it to the site's RTMP ingest (this process's own, or the one at LIVE_RTMP_URL) with the live's key, so
 * the key checks, the busy key, the limits, the reconnect window, the recording and the replay are
 * those of any encoder. The socket closing is the encoder going away.
 */
export class BrowserPublishing {
  private readonly active = new Map<string, { socket: WebSocket; stop: AbortController; done: Promise<void> }>();

  constructor(private readonly deps: BrowserPublishingDeps) {}

  /** Whether a browser is publishing to this live from this process now. */
  busy(videoId: string): boolean {
    return this.active.has(videoId);
  }

  /** Relays what the socket sends to the ingest until either side stops. */
  publish(socket: WebSocket, videoId: string, streamKey: string, mimeType: string): void {
    const { logger } = this.deps;
    const input = new PassThrough();
    const stop = new AbortController();
    let closedBySocket = false;
    socket.on('message', (data, isBinary) => {
      if (!isBinary) return;
      if (input.writableLength > MAX_BUFFERED_BYTES) {
        socket.close(CLOSE.tooMuch, 'The stream arrives faster than it can be sent on');
        return;
      }
      input.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
    });
    // The browser sends all the time, the site nothing: a ping now and then keeps a proxy's read
    // timeout (nginx: 60 s) from taking the quiet direction for a dead connection.
    const keepAlive = setInterval(() => socket.readyState === socket.OPEN && socket.ping(), PING_EVERY_MS);
    socket.on('close', () => {
      clearInterval(keepAlive);
      closedBySocket = true;
      // The end of the input ends ffmpeg's stream cleanly: the ingest sees the encoder go away.
      input.end();
    });
    const done = runBrowserRelay(input, { mimeType }, this.deps.rtmpUrl(streamKey), { tools: this.deps.tools, signal: stop.signal, logger })
      .then(() => {
        if (!closedBySocket) socket.close(CLOSE.stopped, 'The stream ended');
      })
      .catch((err: unknown) => {
        if (closedBySocket || stop.signal.aborted) return;
        logger.warn({ err, videoId }, 'browser relay stopped');
        // The ingest cut the relay off (the key was renewed, a limit was reached, the live ended) or the stream could not be read.
        socket.close(CLOSE.failed, 'The site stopped taking this stream');
      })
      .finally(() => {
        if (this.active.get(videoId)?.socket === socket) this.active.delete(videoId);
      });
    this.active.set(videoId, { socket, stop, done });
    socket.send(JSON.stringify({ state: 'publishing' }));
  }

  /** Stops every relay of this process (the server is stopping). */
  async stopAll(): Promise<void> {
    const all = [...this.active.values()];
    for (const a of all) {
      a.stop.abort();
      a.socket.close(CLOSE.failed, 'The site is restarting');
    }
    await Promise.all(all.map((a) => a.done));
  }
}
