import type { Kysely, Selectable } from 'kysely';
import type { Database, Role } from '../../db/schema.js';
import { ACCESS_COLUMNS, type AccessFields } from '../../db/video-access.js';

export type ChatMessageRow = Selectable<Database['live_chat_messages']>;

/** A video as its chat needs it: who may see it (the access columns) and, for a live, its state and slow mode. */
export interface ChatVideoRow extends AccessFields {
  /** Null: the video is no live. */
  live_status: 'upcoming' | 'live' | 'ended' | null;
  chat_slow_mode_seconds: number | null;
}

/** A message with its author, as the chat shows it. */
export interface ChatMessageViewRow extends ChatMessageRow {
  username: string;
  full_name: string;
  avatar_key: string | null;
}

/** The chat's rows: messages, bans, and the lives' viewer counts. */
export class LiveChatRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findVideo(videoId: string): Promise<ChatVideoRow | undefined> {
    return this.db
      .selectFrom('videos')
      .leftJoin('lives', 'lives.video_id', 'videos.id')
      .select([...ACCESS_COLUMNS, 'lives.status as live_status', 'lives.chat_slow_mode_seconds'])
      .where('videos.id', '=', videoId)
      .executeTakeFirst();
  }

  findUser(userId: string): Promise<{ id: string; role: Role } | undefined> {
    return this.db.selectFrom('users').select(['id', 'role']).where('id', '=', userId).executeTakeFirst();
  }

  /** The newest messages of a live, oldest first. */
  async recent(videoId: string, limit: number): Promise<ChatMessageViewRow[]> {
    const rows = await this.withAuthors()
      .where('live_chat_messages.video_id', '=', videoId)
      .orderBy('live_chat_messages.created_at', 'desc')
      .orderBy('live_chat_messages.id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  }

  findMessage(videoId: string, messageId: string): Promise<ChatMessageViewRow | undefined> {
    return this.withAuthors().where('live_chat_messages.id', '=', messageId).where('live_chat_messages.video_id', '=', videoId).executeTakeFirst();
  }

  async insertMessage(row: ChatMessageRow): Promise<void> {
    await this.db.insertInto('live_chat_messages').values(row).execute();
  }

  async deleteMessage(messageId: string): Promise<void> {
    await this.db.deleteFrom('live_chat_messages').where('id', '=', messageId).execute();
  }

  /** When this user last wrote in this live's chat, or null. */
  async lastMessageAt(videoId: string, userId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('live_chat_messages')
      .select((eb) => eb.fn.max('created_at').as('at'))
      .where('video_id', '=', videoId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.at == null ? null : Number(row.at);
  }

  /** Until when the user is banned from this live's chat, or null (never, or no longer relevant to ask). */
  async banUntil(videoId: string, userId: string): Promise<number | null> {
    const row = await this.db.selectFrom('live_chat_bans').select('until').where('video_id', '=', videoId).where('user_id', '=', userId).executeTakeFirst();
    return row ? Number(row.until) : null;
  }

  /** A new ban replaces the old one of the same live and user. */
  async upsertBan(ban: Selectable<Database['live_chat_bans']>): Promise<void> {
    await this.db
      .insertInto('live_chat_bans')
      .values(ban)
      .onConflict((oc) => oc.columns(['video_id', 'user_id']).doUpdateSet({ until: ban.until, banned_by: ban.banned_by, created_at: ban.created_at }))
      .execute();
  }

  /** The lives on air. */
  async onAir(): Promise<{ video_id: string; viewers: number }[]> {
    return this.db.selectFrom('lives').select(['video_id', 'viewers']).where('status', '=', 'live').execute();
  }

  async setViewers(videoId: string, viewers: number): Promise<void> {
    await this.db.updateTable('lives').set({ viewers }).where('video_id', '=', videoId).execute();
  }

  private withAuthors() {
    return this.db
      .selectFrom('live_chat_messages')
      .innerJoin('users', 'users.id', 'live_chat_messages.user_id')
      .selectAll('live_chat_messages')
      .select(['users.username', 'users.full_name', 'users.avatar_key']);
  }
}
