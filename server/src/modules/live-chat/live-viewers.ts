import type { Logger } from 'pino';
import type { ViewerCounts } from './viewer-counts.js';

/** What the viewers of a live are written to: the lives on air and their `viewers` column. */
export interface ViewerColumn {
  onAir(): Promise<{ video_id: string; viewers: number }[]>;
  setViewers(videoId: string, viewers: number): Promise<void>;
}

export interface LiveViewersOptions {
  counts: ViewerCounts;
  lives: ViewerColumn;
  logger: Logger;
  /** How often open streams are told a changed count (and this process's counts are reported). */
  tellEveryMs?: number;
  /** How often the lives on air get their `viewers` column set to the total. */
  writeEveryMs?: number;
}

interface Watcher {
  /** False for the live's own channel watching it (the Go live page, the live page): told the count, not in it. */
  counted: boolean;
  last: number;
  tell(viewers: number): void;
}

/**
 * The viewers of a live are its open chat streams. This process counts its own per live, reports
 * them where every process's counts meet, tells each open stream the total when it changed, and
 * keeps `lives.viewers` (what the live list orders by and the video page shows) at the total.
 * Every process writing that column is fine: they write the same number. A changed count is not a
 * public change: kept answers show it once they expire (seconds), as they do a counted view, since
 * telling it would throw away every kept answer of the site each round while anything is on air;
 * the live page's own count comes from its stream.
 */
export class LiveViewers {
  private readonly watchers = new Map<string, Set<Watcher>>();
  private timers: NodeJS.Timeout[] = [];
  private tick: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly opts: LiveViewersOptions) {}

  /**
   * One more viewer of the live (unless `counted` is false), told the total whenever it changes;
   * answers the total with it counted, and the function that takes it away.
   */
  async join(videoId: string, tell: (viewers: number) => void, counted = true): Promise<{ viewers: number; leave: () => void }> {
    const watcher: Watcher = { counted, last: -1, tell };
    let set = this.watchers.get(videoId);
    if (!set) this.watchers.set(videoId, (set = new Set()));
    set.add(watcher);
    await this.report();
    watcher.last = await this.opts.counts.total(videoId);
    const leave = () => {
      const current = this.watchers.get(videoId);
      if (!current?.delete(watcher)) return;
      if (current.size === 0) this.watchers.delete(videoId);
      void this.report();
    };
    return { viewers: watcher.last, leave };
  }

  start(): void {
    if (this.timers.length || this.stopped) return;
    const every = (ms: number, run: () => Promise<void>) => {
      const timer = setInterval(() => {
        // One round at a time: a slow database or Redis never piles them up.
        this.tick = this.tick.then(run).catch((err: unknown) => this.opts.logger.warn({ err }, 'counting live viewers failed'));
      }, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.opts.tellEveryMs ?? 3000, () => this.tellChanged());
    every(this.opts.writeEveryMs ?? 5000, () => this.writeColumn());
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.tick;
    this.watchers.clear();
    await this.opts.counts.close();
  }

  private async report(): Promise<void> {
    const counts = new Map([...this.watchers].map(([videoId, set]) => [videoId, [...set].filter((w) => w.counted).length]));
    await this.opts.counts.report(counts).catch((err: unknown) => this.opts.logger.warn({ err }, 'reporting live viewers failed'));
  }

  /** Reports this process's counts (keeping them fresh), then tells each stream a total it has not seen. */
  private async tellChanged(): Promise<void> {
    await this.report();
    for (const [videoId, set] of [...this.watchers]) {
      const total = await this.opts.counts.total(videoId);
      for (const watcher of set) {
        if (watcher.last === total) continue;
        watcher.last = total;
        watcher.tell(total);
      }
    }
  }

  private async writeColumn(): Promise<void> {
    for (const live of await this.opts.lives.onAir()) {
      const total = await this.opts.counts.total(live.video_id);
      if (total !== live.viewers) await this.opts.lives.setViewers(live.video_id, total);
    }
  }
}
