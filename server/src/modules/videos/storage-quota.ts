import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import type { StorageQuotaRepository } from './storage-quota.repository.js';

const DAY_MS = 24 * 3600_000;
/** -1 means no limit, for the site's defaults and a user's own values alike. */
export const UNLIMITED = -1;

export interface QuotaLimits {
  /** Bytes of uploaded sources a user may keep (videos plus uploads in progress). */
  totalBytes: number;
  /** Bytes a user may upload per rolling 24 hours. */
  dailyBytes: number;
}

export interface QuotaUsage extends QuotaLimits {
  usedBytes: number;
  usedDailyBytes: number;
}

export const quotaExceeded = (message: string) => new AppError(413, 'QUOTA_EXCEEDED', message);

/**
 * Storage quotas, all in one place: a user's own values (users.quota_bytes, users.daily_quota_bytes)
 * when set, the site's defaults otherwise. Usage counts every video's source and every resumable
 * upload still in progress at its full announced size, so a started upload holds its room.
 */
export class StorageQuota {
  private readonly storedBytes: StorageQuotaRepository;
  private readonly defaults: Config['quotas'] | (() => Promise<Config['quotas']>);

  /** `defaults` is the site's settings (admins change them) or fixed values. */
  constructor(deps: { storedBytes: StorageQuotaRepository; defaults: Config['quotas'] | (() => Promise<Config['quotas']>) }) {
    this.storedBytes = deps.storedBytes;
    this.defaults = deps.defaults;
  }

  async limits(userId: string): Promise<QuotaLimits> {
    const row = await this.storedBytes.ownLimits(userId);
    const defaults = typeof this.defaults === 'function' ? await this.defaults() : this.defaults;
    return {
      totalBytes: row?.quota_bytes ?? defaults.totalBytes,
      dailyBytes: row?.daily_quota_bytes ?? defaults.dailyBytes,
    };
  }

  async usage(userId: string, now = Date.now()): Promise<QuotaUsage> {
    const since = now - DAY_MS;
    const [limits, videos, uploads] = await Promise.all([
      this.limits(userId),
      this.storedBytes.bytes('videos', userId, since),
      this.storedBytes.bytes('uploads', userId, since),
    ]);
    return { ...limits, usedBytes: videos.total + uploads.total, usedDailyBytes: videos.recent + uploads.recent };
  }

  /** Refuses (413) an upload of `bytes` that would take the user past either quota. */
  async assertRoom(userId: string, bytes: number, now = Date.now()): Promise<void> {
    const u = await this.usage(userId, now);
    if (u.totalBytes !== UNLIMITED && u.usedBytes + bytes > u.totalBytes) {
      throw quotaExceeded(
        `This upload needs ${bytes} bytes but only ${Math.max(0, u.totalBytes - u.usedBytes)} bytes of your ${u.totalBytes}-byte storage quota are left`,
      );
    }
    if (u.dailyBytes !== UNLIMITED && u.usedDailyBytes + bytes > u.dailyBytes) {
      throw quotaExceeded(
        `This upload needs ${bytes} bytes but only ${Math.max(0, u.dailyBytes - u.usedDailyBytes)} bytes of your ${u.dailyBytes}-byte daily upload quota are left`,
      );
    }
  }
}
