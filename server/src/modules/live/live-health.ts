import type { LiveHealth } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { LiveRow } from './live.repository.js';

/** The encoder's stream as the ingest records it (the `health` JSON column). */
export type StoredHealth = Omit<LiveHealth, 'lastDataAt'>;

const EMPTY: StoredHealth = { videoCodec: null, audioCodec: null, width: null, height: null, frameRate: null, bitrate: null };

/** The health column as the owner reads it; a column this version cannot read shows as unknown. */
export function presentHealth(live: Pick<LiveRow, 'health' | 'last_data_at'>): LiveHealth {
  let stored: Partial<StoredHealth> = {};
  try {
    stored = live.health ? (JSON.parse(live.health) as Partial<StoredHealth>) : {};
  } catch {
    stored = {};
  }
  return { ...EMPTY, ...stored, lastDataAt: live.last_data_at !== null ? toIso(Number(live.last_data_at)) : null };
}
