import { type InstanceSettings, type InstanceSettingsPatch, LADDER_RUNGS, type PublicInstance } from '@reelhouse/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../http/errors.js';
import { type Actor, recordAudit } from '../audit/audit-log.js';
import { noPublicChanges, type PublicChanges } from '../../lib/public-changes.js';

const SETTINGS_KEY = 'instance';

/**
 * The site's settings, edited by admins and kept in the database (one JSON row in `settings`), so
 * every API process and worker reads the same values without a restart. Only what an admin changed
 * is stored; the rest comes from the defaults, some of which the environment sets.
 */
export class InstanceService {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'limits' | 'demo' | 'quotas'>,
    /** Creates the demo account (or resets its password) when an admin turns it on. */
    private readonly ensureDemoAccount: () => Promise<void> = async () => {},
    /** Told after an update: the site's name and sign-up mode are read by signed-out visitors. */
    private readonly changes: PublicChanges = noPublicChanges,
    /** Told after sessions were revoked here (the demo account's, when it is turned off). */
    private readonly sessionsRevoked: () => void = () => {},
  ) {}

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
    };
  }

  /** Read on each use rather than cached: one small row, and another process may have changed it. */
  async settings(db: Db = this.db): Promise<InstanceSettings> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
    const stored = row ? (JSON.parse(row.value) as Partial<InstanceSettings>) : {};
    const merged = { ...this.defaults(), ...stored };
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
      limits: {
        maxVideoBytes: s.maxVideoBytes, maxVideoDurationSeconds: s.maxVideoDurationSeconds,
        defaultQuotaBytes: s.defaultQuotaBytes, defaultDailyQuotaBytes: s.defaultDailyQuotaBytes,
      },
    };
  }

  /** Rungs new ladders get, lowest first. */
  async ladderRungs(): Promise<number[]> {
    return [...(await this.settings()).ladderRungs].sort((a, b) => a - b);
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
    const updated = await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
      const stored = row ? (JSON.parse(row.value) as Partial<InstanceSettings>) : {};
      const before = await this.settings(trx);
      const value = JSON.stringify({ ...stored, ...patch });
      await trx.insertInto('settings').values({ key: SETTINGS_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
      const changed = Object.fromEntries(Object.entries(patch).filter(([k, v]) => before[k as keyof InstanceSettings] !== v)
        .map(([k, v]) => [k, { from: before[k as keyof InstanceSettings], to: v }]));
      await recordAudit(trx, actor, { action: 'settings.update', target: { type: 'settings', id: SETTINGS_KEY }, details: changed });
      // Turned off: whoever is signed in as the demo account is signed out with it.
      if (patch.demoAccount === false && before.demoAccount) {
        await trx.updateTable('sessions').set({ revoked_at: Date.now() })
          .where('revoked_at', 'is', null)
          .where('user_id', 'in', trx.selectFrom('users').select('id').where('is_demo', '=', 1))
          .execute();
      }
      return this.settings(trx);
    });
    await this.changes.changed();
    if (patch.demoAccount === false) this.sessionsRevoked();
    if (patch.demoAccount === true) await this.ensureDemoAccount();
    return updated;
  }
}
