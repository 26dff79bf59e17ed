import type { Logger } from 'pino';
import { ownerGone, ownerTag } from '../../lib/process-owner.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import type { StoredHealth } from './live-health.js';
import type { LiveRepository } from './live.repository.js';
import { hashStreamKey } from './live.service.js';
import type { LiveBroadcasts } from './live-broadcasts.js';
import type { LiveReplay } from './live-replay.js';
import type { IngestHandlers } from './rtmp-ingest.js';
import type { LiveEvents } from './live-events.js';

export interface LiveOnAirDeps {
  lives: LiveRepository;
  changes: PublicChanges;
  logger: Logger;
  /** The ladder of each live on air. */
  broadcasts: Pick<LiveBroadcasts, 'start' | 'stop'>;
  /** What an ended live becomes. */
  replay: Pick<LiveReplay, 'afterEnd'>;
  /** Told when a live goes on air or ends. */
  events: LiveEvents;
  now?: () => number;
}

/** The lives rules the ingest asks: which live a key publishes to, on air, its health, and the end when the encoder stays away. */
export class LiveOnAir implements IngestHandlers {
  private readonly now: () => number;

  constructor(private readonly deps: LiveOnAirDeps) {
    this.now = deps.now ?? Date.now;
  }

  async publisher(streamKey: string): Promise<string | null> {
    const live = await this.deps.lives.findByKeyHash(hashStreamKey(streamKey));
    // An ended live takes no more data: its replay is being made from what it had.
    if (!live || live.status === 'ended') return null;
    return live.video_id;
  }

  async started(videoId: string, streamKey: string): Promise<void> {
    const admitted = await this.deps.lives.goLive(videoId, this.now(), ownerTag());
    if (!admitted) return;
    await this.deps.broadcasts.start(videoId, streamKey);
    await this.deps.changes.changed();
    await this.deps.events.status(videoId, 'live');
    if (admitted === 'started') await this.deps.events.sessionStarted(videoId);
  }

  async health(videoId: string, health: StoredHealth, at: number): Promise<void> {
    await this.deps.lives.setHealth(videoId, JSON.stringify(health), at);
  }

  /**
   * At start, before any encoder connects: a live still on air whose process died (its encoder's
   * connection died with it) is over.
   */
  async settle(): Promise<void> {
    // Only lives whose process is known to be gone: another process (or machine) may have its own on air.
    const ended = (await this.deps.lives.onAir()).filter((l) => l.ingest_owner === null || ownerGone(l.ingest_owner)).map((l) => l.video_id);
    if (ended.length === 0) return;
    await this.deps.lives.endOnAir(ended, this.now());
    this.deps.logger.info({ videoIds: ended }, 'lives left on air by a stopped process ended');
    await this.deps.changes.changed();
    for (const videoId of ended) await this.deps.events.status(videoId, 'ended');
  }

  async gone(videoId: string): Promise<void> {
    await this.deps.broadcasts.stop(videoId);
    if (await this.deps.lives.end(videoId, this.now())) {
      this.deps.logger.info({ videoId }, 'live ended: the encoder stayed away');
      await this.deps.changes.changed();
      await this.deps.events.status(videoId, 'ended');
      await this.deps.replay.afterEnd(videoId);
    }
  }
}
