import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';

export type UploadRow = Selectable<Database['uploads']>;

/** Rows of resumable uploads in progress. */
export class UploadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: UploadRow): Promise<void> {
    await this.db.insertInto('uploads').values(row).execute();
  }

  find(id: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Marks the upload as being turned into a video; false when another request already has. */
  async claim(id: string, now: number): Promise<boolean> {
    const r = await this.db.updateTable('uploads').set({ claimed_at: now }).where('id', '=', id).where('claimed_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async unclaim(id: string): Promise<void> {
    await this.db.updateTable('uploads').set({ claimed_at: null }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('uploads').where('id', '=', id).execute();
  }

  /** Uploads past their expiry, oldest first. */
  async expired(now: number, limit: number): Promise<UploadRow[]> {
    return this.db.selectFrom('uploads').selectAll().where('expires_at', '<', now).orderBy('expires_at').limit(limit).execute();
  }
}
