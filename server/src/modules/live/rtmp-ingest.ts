import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { SourceVideo } from '../../media/broadcast.js';
import type { StoredHealth } from './live-health.js';
// Only the RTMP session layer of node-media-server is used, under our own TCP server: its
// NodeMediaServer would also start an HTTP server, a store in the working directory and exit the
// process when its port is taken (decision 0053).
import Context from 'node-media-server/src/core/context.js';
import nmsLogger from 'node-media-server/src/core/logger.js';
import NmsSession, { type RtmpSession } from 'node-media-server/src/session/rtmp_session.js';

/** What the ingest asks of the lives rules. */
export interface IngestHandlers {
  /** The video a stream key publishes to, or null when no live takes it (unknown, renewed, or ended). */
  publisher(streamKey: string): Promise<string | null>;
  /** An encoder started (or resumed) publishing to this video with this key. */
  started(videoId: string, streamKey: string): Promise<void>;
  /** What the encoder sends, every few seconds while it publishes. */
  health(videoId: string, health: StoredHealth, at: number): Promise<void>;
  /** The encoder stayed away longer than the reconnect window. */
  gone(videoId: string): Promise<void>;
  /** Settles what a stopped process left on air; called once the port is ours, before any encoder is taken. */
  settle(): Promise<void>;
}

export interface RtmpIngestOptions {
  port: number;
  host: string;
  /** How long an encoder may be away and come back to the same live. */
  reconnectMs: number;
  healthEveryMs?: number;
  logger: Logger;
  handlers: IngestHandlers;
}

/** FLV codec ids (and enhanced RTMP's FourCCs) as names. */
const VIDEO_CODECS: Record<string, string> = { '7': 'h264', '12': 'hevc', hvc1: 'hevc', av01: 'av1', vp09: 'vp9', avc1: 'h264' };
const AUDIO_CODECS: Record<string, string> = { '10': 'aac', '2': 'mp3', '13': 'opus', Opus: 'opus', mp4a: 'aac' };

/** A codec id as a name: FLV's numbers, and enhanced RTMP's FourCCs (as text, or as the number metadata carries). */
function codecName(id: number | string, names: Record<string, string>): string | null {
  if (!id) return null;
  const key = typeof id === 'number' && id > 0xff ? Buffer.from([id >>> 24, (id >> 16) & 0xff, (id >> 8) & 0xff, id & 0xff]).toString('latin1') : String(id);
  return names[key] ?? key;
}

interface Publishing {
  session: RtmpSession;
  bytesAt: number;
  at: number;
}

/**
 * The RTMP server encoders publish to: `rtmp://HOST:PORT/live/<stream key>`. A key is checked when
 * the encoder asks to publish; one that no live takes is cut off before anything is started. One
 * encoder per live: a second one on a busy key is refused by the session layer itself.
 */
export class RtmpIngest {
  private server: net.Server | null = null;
  private readonly ours = new WeakSet<RtmpSession>();
  private readonly sockets = new Set<net.Socket>();
  private readonly publishing = new Map<string, Publishing>();
  private readonly away = new Map<string, NodeJS.Timeout>();
  private healthTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: RtmpIngestOptions) {}

  async start(): Promise<void> {
    const log = this.opts.logger;
    nmsLogger.log = (message, level = 'info') => {
      if (level === 'error' || level === 'warn') log.debug({ rtmp: message }, 'rtmp session');
    };
    Context.eventEmitter.on('prePublish', this.onPrePublish);
    Context.eventEmitter.on('prePlay', this.onPrePlay);
    const server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      const session = new NmsSession(socket);
      this.ours.add(session);
      session.run();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port, this.opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => log.error({ err }, 'live ingest server error'));
    this.server = server;
    await this.opts.handlers.settle().catch((err) => log.error({ err }, 'settling lives left on air failed'));
    this.healthTimer = setInterval(() => void this.sampleHealth(), this.opts.healthEveryMs ?? 2000);
    this.healthTimer.unref();
    log.info({ port: this.opts.port }, 'live ingest (RTMP) listening');
  }

  /** Whether the RTMP port is this process's (start succeeded and stop has not been called). */
  get listening(): boolean {
    return this.server !== null;
  }

  async stop(): Promise<void> {
    Context.eventEmitter.off('prePublish', this.onPrePublish);
    Context.eventEmitter.off('prePlay', this.onPrePlay);
    if (this.healthTimer) clearInterval(this.healthTimer);
    for (const timer of this.away.values()) clearTimeout(timer);
    this.away.clear();
    this.publishing.clear();
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * What the encoder publishing to this video said of its video in its metadata, which encoders
   * send before the first frame; null if it said nothing within `waitMs` or is not publishing here.
   */
  async sourceVideo(videoId: string, waitMs = 2000): Promise<SourceVideo | null> {
    const until = Date.now() + waitMs;
    for (;;) {
      const s = this.publishing.get(videoId)?.session;
      if (!s) return null;
      if (s.videoCodec) {
        return {
          codec: codecName(s.videoCodec, VIDEO_CODECS),
          height: s.videoHeight ? Math.round(s.videoHeight) : null,
          frameRate: s.videoFramerate || null,
        };
      }
      if (Date.now() >= until) return null;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /**
   * The live as it arrives, as an FLV byte stream read inside this process (for the codecs this
   * machine's ffmpeg cannot read over RTMP); null when nothing publishes to it here. Destroying the
   * stream stops the reading.
   */
  flvStream(videoId: string): Readable | null {
    const session = this.publishing.get(videoId)?.session;
    const broadcast = session && Context.broadcasts.get(session.streamPath);
    if (!session || !broadcast) return null;
    const out = new PassThrough({ highWaterMark: 8 * 1024 * 1024 });
    const reader = {
      id: randomUUID(),
      // Internal: no prePlay check, not counted as a viewer.
      ip: '',
      protocol: 'flv' as const,
      streamPath: session.streamPath,
      endTime: 0,
      sendBuffer: (buffer: Buffer) => {
        // A reader that cannot keep up loses the live rather than holding the process's memory.
        if (!out.destroyed && !out.write(Buffer.from(buffer)) && out.writableLength > 64 * 1024 * 1024) out.destroy();
      },
    };
    const refused = broadcast.postPlay(reader);
    if (refused) return null;
    // It stays attached across an encoder's reconnection, as a player does; the broadcast's end destroys it.
    out.once('close', () => broadcast.donePlay(reader));
    return out;
  }

  /** Cuts off the encoder publishing to this video, if any. */
  async disconnect(videoId: string): Promise<void> {
    const p = this.publishing.get(videoId);
    if (!p) return;
    this.publishing.delete(videoId);
    p.session.close();
  }

  private readonly onPrePublish = (session: RtmpSession) => {
    if (!this.ours.has(session)) return;
    // The session layer refuses a second publisher on a busy path by itself, after this event.
    const broadcast = Context.broadcasts.get(session.streamPath);
    if (broadcast?.publisher && broadcast.publisher !== session && !broadcast._publishGraceTimer) return;
    void this.admit(session);
  };

  /** Players may only be this machine's own (the transcoder); viewers are served HLS. */
  private readonly onPrePlay = (session: RtmpSession) => {
    if (!this.ours.has(session)) return;
    const address = session.ip.replace(/:\d+$/, '');
    if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address)) session.close();
  };

  private async admit(session: RtmpSession): Promise<void> {
    let videoId: string | null = null;
    try {
      videoId = session.streamApp === 'live' ? await this.opts.handlers.publisher(session.streamName) : null;
    } catch (err) {
      this.opts.logger.error({ err }, 'checking a stream key failed');
    }
    if (!videoId || this.publishing.get(videoId)?.session === session) {
      if (!videoId) session.close();
      return;
    }
    const other = this.publishing.get(videoId);
    // Another key's encoder still on this live (the key was renewed meanwhile) gives way.
    if (other) other.session.close();
    const timer = this.away.get(videoId);
    if (timer) clearTimeout(timer);
    this.away.delete(videoId);
    this.publishing.set(videoId, { session, bytesAt: session.inBytes, at: Date.now() });
    const id = videoId;
    session.socket.once('close', () => this.left(id, session));
    await this.opts.handlers.started(id, session.streamName).catch((err) => this.opts.logger.error({ err, videoId: id }, 'marking a live on air failed'));
  }

  /** The encoder's connection closed: the live waits for it for the reconnect window. */
  private left(videoId: string, session: RtmpSession): void {
    if (this.publishing.get(videoId)?.session === session) this.publishing.delete(videoId);
    if (this.publishing.has(videoId) || !this.server) return;
    const timer = setTimeout(() => {
      this.away.delete(videoId);
      if (this.publishing.has(videoId)) return;
      void this.opts.handlers.gone(videoId).catch((err) => this.opts.logger.error({ err, videoId }, 'ending a live failed'));
    }, this.opts.reconnectMs);
    timer.unref();
    this.away.set(videoId, timer);
  }

  private async sampleHealth(): Promise<void> {
    const now = Date.now();
    for (const [videoId, p] of this.publishing) {
      const s = p.session;
      const seconds = (now - p.at) / 1000;
      const bitrate = seconds > 0 ? Math.round(((s.inBytes - p.bytesAt) * 8) / seconds) : null;
      p.bytesAt = s.inBytes;
      p.at = now;
      const health: StoredHealth = {
        videoCodec: codecName(s.videoCodec, VIDEO_CODECS),
        audioCodec: codecName(s.audioCodec, AUDIO_CODECS),
        width: s.videoWidth ? Math.round(s.videoWidth) : null,
        height: s.videoHeight ? Math.round(s.videoHeight) : null,
        frameRate: s.videoFramerate ? Math.round(s.videoFramerate * 100) / 100 : null,
        bitrate,
      };
      await this.opts.handlers.health(videoId, health, now).catch((err) => this.opts.logger.error({ err, videoId }, 'recording live health failed'));
    }
  }
}
