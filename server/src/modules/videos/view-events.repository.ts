import type { Db } from '../../db/client.js';

/** The records that keep one viewer from counting twice within the view window. */
export class ViewEventsRepository {
  constructor(private readonly db: Db) {}

  /** Forgets records counted before `cutoff`; returns how many. */
  async deleteCountedBefore(cutoff: number): Promise<number> {
    const res = await this.db.deleteFrom('view_events').where('counted_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
