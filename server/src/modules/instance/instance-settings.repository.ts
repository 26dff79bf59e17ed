import type { InstanceSettings } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import { type Actor, AuditLogRepository, type AuditRecord } from '../audit/audit-log.repository.js';
import { SessionsRepository } from '../users/sessions.repository.js';
import { saveSetting } from '../users/settings.repository.js';

const SETTINGS_KEY = 'instance';

/** What an admin changed of the site's settings: one JSON row in `settings`. */
export type StoredSettings = Partial<InstanceSettings>;

/** What a settings change writes besides the row itself. */
export interface SettingsChange {
  stored: StoredSettings;
  audit: Omit<AuditRecord, 'target'>;
  /** The demo account was turned off: whoever is signed in as it is signed out with it. */
  signOutDemoAccount: boolean;
}

export class InstanceSettingsRepository {
  constructor(private readonly db: Db) {}

  async stored(db: Db = this.db): Promise<StoredSettings> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
    return row ? (JSON.parse(row.value) as StoredSettings) : {};
  }

  /**
   * Reads what is stored, lets `apply` decide the change, and writes it with its audit line (and
   * the demo account's sign-out) in one transaction. Returns what is stored afterwards.
   */
  async change(actor: Actor, apply: (stored: StoredSettings) => SettingsChange): Promise<StoredSettings> {
    return this.db.transaction().execute(async (trx) => {
      const change = apply(await this.stored(trx));
      const value = JSON.stringify(change.stored);
      await saveSetting(trx, SETTINGS_KEY, value);
      await new AuditLogRepository(trx).record(actor, { ...change.audit, target: { type: 'settings', id: SETTINGS_KEY } });
      if (change.signOutDemoAccount) {
        await new SessionsRepository(trx).revokeDemoAccounts(Date.now());
      }
      return this.stored(trx);
    });
  }
}
