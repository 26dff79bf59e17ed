import type { InstanceSettings } from '@reelhouse/contract';
import { conflict, forbidden, type AppError } from '../../http/errors.js';
import type { LiveRepository } from './live.repository.js';

/** The site's settings on lives, as an admin set them. */
export type LiveLimitSettings = Pick<InstanceSettings, 'liveAllowed' | 'maxLivesOnAir' | 'maxLivesOnAirPerUser' | 'maxLiveMinutes'>;

export interface LiveLimitsDeps {
  settings: () => Promise<LiveLimitSettings>;
  lives: Pick<LiveRepository, 'countOnAir'>;
  /** The account's role and whether an admin has allowed it to go live; null when it is gone. */
  account: (userId: string) => Promise<{ role: string; live_allowed: number } | null>;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Who may go live (asked when a live is made, and again when it goes on air) and how many lives may be
 * on air at once (asked when an encoder, or a browser through the same ingest, starts publishing):
 * the one place these rules live.
 */
export class LiveLimits {
  constructor(private readonly deps: LiveLimitsDeps) {}

  async settings(): Promise<LiveLimitSettings> {
    return this.deps.settings();
  }

  /** Why this account may not go live on this site (403), or null. */
  async whoMay(userId: string, settings?: LiveLimitSettings): Promise<AppError | null> {
    const s = settings ?? (await this.deps.settings());
    if (s.liveAllowed === 'nobody') return forbidden('Going live is not allowed on this site');
    if (s.liveAllowed === 'everyone') return null;
    const account = await this.deps.account(userId);
    if (account && (account.role === 'admin' || account.live_allowed === 1)) return null;
    return forbidden('Going live is not allowed for your account on this site; ask an administrator');
  }

  /**
   * Why this account may not put another live on air now (409), or null: the most lives on air at
   * once, of the account and of the site. A live already on air (an encoder resuming) does not count
   * against itself.
   */
  async roomOnAir(userId: string, except?: string, settings?: LiveLimitSettings): Promise<AppError | null> {
    const s = settings ?? (await this.deps.settings());
    if (s.maxLivesOnAirPerUser > 0 && (await this.deps.lives.countOnAir({ userId, except })) >= s.maxLivesOnAirPerUser) {
      return conflict(`You already have ${plural(s.maxLivesOnAirPerUser, 'live')} on air, the most this site allows at once; end one first`);
    }
    if (s.maxLivesOnAir > 0 && (await this.deps.lives.countOnAir({ except })) >= s.maxLivesOnAir) {
      return conflict(`This site already has ${plural(s.maxLivesOnAir, 'live')} on air, the most it allows at once; try again later`);
    }
    return null;
  }

  /** Why this live may not go on air now, or null: who may go live, then the room on air. */
  async mayPublish(live: { user_id: string; video_id: string }): Promise<AppError | null> {
    const s = await this.deps.settings();
    return (await this.whoMay(live.user_id, s)) ?? (await this.roomOnAir(live.user_id, live.video_id, s));
  }
}
