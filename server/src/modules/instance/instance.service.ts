import { type InstanceSettings, type InstanceSettingsPatch, LADDER_RUNGS, type PublicInstance } from '@reelhouse/contract';
import type { Config } from '../../config.js';
import { badRequest } from '../../http/errors.js';
import type { Actor } from '../audit/audit-log.repository.js';
import { noPublicChanges, type PublicChanges } from '../../lib/public-changes.js';
import type { InstanceSettingsRepository, StoredSettings } from './instance-settings.repository.js';

export interface InstanceDeps {
  settings: InstanceSettingsRepository;
  config: Pick<Config, 'limits' | 'demo' | 'quotas' | 'email' | 'emailVerification' | 'oidcProviders' | 'federation'>;
  /** Creates the demo account (or resets its password) when an admin turns it on. */
  ensureDemoAccount?: () => Promise<void>;
  /** Told after an update: the site's name and sign-up mode are read by signed-out visitors. */
  changes?: PublicChanges;
  /** Told after sessions were revoked here (the demo account's, when it is turned off). */
  forgetLiveSessions?: () => void;
}

/**
 * The site's settings, edited by admins and kept in the database (one JSON row in `settings`), so
 * every API process and worker reads the same values without a restart. Only what an admin changed
 * is stored; the rest comes from the defaults, some of which the environment sets.
 */
export class InstanceService {
  private readonly config: InstanceDeps['config'];

  constructor(private readonly deps: InstanceDeps) {
    this.config = deps.config;
  }

  defaults(): InstanceSettings {
    return {
      name: 'Reelhouse',
      description: 'A place to share and watch videos.',
      signupMode: 'open',
      maxVideoBytes: this.config.limits.maxVideoBytes,
      maxVideoDurationSeconds: null,
      defaultQuotaBytes: this.config.quotas.totalBytes,
      defaultDailyQuotaBytes: this.config.quotas.dailyBytes,
      ladderRungs: [...LADDER_RUNGS],
      demoAccount: this.config.demo.enabled,
      passwordSignIn: true,
      liveAllowed: 'everyone',
      maxLivesOnAir: 0,
      maxLivesOnAirPerUser: 1,
      maxLiveMinutes: 720,
    };
  }

  /** Read on each use rather than cached: one small row, and another process may have changed it. */
  async settings(): Promise<InstanceSettings> {
    return this.withDefaults(await this.deps.settings.stored());
  }

  private withDefaults(stored: StoredSettings): InstanceSettings {
    const merged = { ...this.defaults(), ...stored };
    // Saved while providers were set up, and they are gone now: passwords are the only way in again.
    if (this.config.oidcProviders.length === 0) merged.passwordSignIn = true;
    // MAX_VIDEO_BYTES is the server's ceiling (what its upload parser accepts): a setting saved
    // under a larger ceiling never lifts it.
    merged.maxVideoBytes = Math.min(merged.maxVideoBytes, this.config.limits.maxVideoBytes);
    return merged;
  }

  async publicInfo(): Promise<PublicInstance> {
    const s = await this.settings();
    return {
      name: s.name,
      description: s.description,
      signupMode: s.signupMode,
      demoAccount: s.demoAccount,
      email: { enabled: this.config.email !== null, verification: this.config.emailVerification },
      passwordSignIn: s.passwordSignIn,
      signInProviders: this.config.oidcProviders.map((p) => ({ name: p.name, label: p.label })),
      federation: this.config.federation.enabled,
      limits: {
        maxVideoBytes: s.maxVideoBytes,
        maxVideoDurationSeconds: s.maxVideoDurationSeconds,
        defaultQuotaBytes: s.defaultQuotaBytes,
        defaultDailyQuotaBytes: s.defaultDailyQuotaBytes,
      },
    };
  }

  /** Rungs new ladders get, lowest first. */
  async ladderRungs(): Promise<number[]> {
    return [...(await this.settings()).ladderRungs].sort((a, b) => a - b);
  }

  async passwordSignInOn(): Promise<boolean> {
    return (await this.settings()).passwordSignIn;
  }

  async demoAccountOn(): Promise<boolean> {
    return (await this.settings()).demoAccount;
  }

  /** The quotas of accounts without their own (DEFAULT_QUOTA_BYTES and DEFAULT_DAILY_QUOTA_BYTES until an admin changes them). */
  async quotaDefaults(): Promise<Config['quotas']> {
    const s = await this.settings();
    return { totalBytes: s.defaultQuotaBytes, dailyBytes: s.defaultDailyQuotaBytes };
  }

  async update(actor: Actor, patch: InstanceSettingsPatch): Promise<InstanceSettings> {
    const ceiling = this.config.limits.maxVideoBytes;
    if (patch.maxVideoBytes !== undefined && patch.maxVideoBytes > ceiling) {
      throw badRequest(`maxVideoBytes must be at most ${ceiling}, the server's MAX_VIDEO_BYTES`, [
        { path: 'maxVideoBytes', message: `maxVideoBytes must be at most ${ceiling}, the server's MAX_VIDEO_BYTES` },
      ]);
    }
    if (patch.passwordSignIn === false && this.config.oidcProviders.length === 0) {
      const message = 'passwordSignIn can be turned off only when single sign-on is set up (OIDC_PROVIDERS)';
      throw badRequest(message, [{ path: 'passwordSignIn', message }]);
    }
    const stored = await this.deps.settings.change(actor, (stored) => {
      const before = this.withDefaults(stored);
      const changed = Object.fromEntries(
        Object.entries(patch)
          .filter(([k, v]) => before[k as keyof InstanceSettings] !== v)
          .map(([k, v]) => [k, { from: before[k as keyof InstanceSettings], to: v }]),
      );
      return {
        stored: { ...stored, ...patch },
        audit: { action: 'settings.update', details: changed },
        signOutDemoAccount: patch.demoAccount === false && before.demoAccount,
      };
    });
    const updated = this.withDefaults(stored);
    await (this.deps.changes ?? noPublicChanges).changed();
    if (patch.demoAccount === false) this.deps.forgetLiveSessions?.();
    if (patch.demoAccount === true) await this.deps.ensureDemoAccount?.();
    return updated;
  }
}
