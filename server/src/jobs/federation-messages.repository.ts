import type { Db } from '../db/client.js';
import { newId } from '../lib/ids.js';

/** The ActivityPub library's queued messages, by id: their job carries only the id. */
export class FederationMessagesRepository {
  constructor(private readonly db: Db) {}

  async insert(message: unknown, now: number): Promise<string> {
    const id = newId();
    await this.db
      .insertInto('federation_messages')
      .values({ id, body: JSON.stringify(message), created_at: now })
      .execute();
    return id;
  }

  async find(id: string): Promise<unknown> {
    const row = await this.db.selectFrom('federation_messages').select('body').where('id', '=', id).executeTakeFirst();
    return row ? (JSON.parse(row.body) as unknown) : undefined;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('federation_messages').where('id', '=', id).execute();
  }

  /** Messages older than this whose job died with its process on the last attempt. */
  async deleteOlderThan(time: number): Promise<void> {
    await this.db.deleteFrom('federation_messages').where('created_at', '<', time).execute();
  }
}
