import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';

export type MailRow = Selectable<Database['mails']>;

/** Mails waiting to be sent. */
export class MailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: MailRow): Promise<void> {
    await this.db.insertInto('mails').values(row).execute();
  }

  async find(id: string): Promise<MailRow | null> {
    return (await this.db.selectFrom('mails').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async setComposed(id: string, mail: { subject: string; text_body: string; html_body: string }): Promise<void> {
    await this.db.updateTable('mails').set(mail).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('mails').where('id', '=', id).execute();
  }
}
