import type { Generated } from 'kysely';

/** The tables of lives and their chats, part of `Database`. */
export interface LiveTables {
  /** A live video's live state (one row per live video; see migration 0053). */
  lives: {
    video_id: string;
    user_id: string;
    /** SHA-256 of the stream key, hex: how a connecting encoder is found. */
    stream_key_hash: string;
    /** The stream key sealed with the site's secret box, so that its owner can read it again. */
    stream_key_sealed: string;
    permanent: number;
    save_replay: number;
    scheduled_start: number | null;
    status: 'upcoming' | 'live' | 'ended';
    started_at: number | null;
    ended_at: number | null;
    last_data_at: number | null;
    /** JSON of LiveHealth's fields, as the encoder last sent them; null before any data. */
    health: string | null;
    /** The owner tag of the process whose ingest has the live on air; null before. */
    ingest_owner: string | null;
    viewers: Generated<number>;
    created_at: number;
    /** Seconds a viewer waits between two chat messages; null: the site's default (migration 0054). */
    chat_slow_mode_seconds: number | null;
  };
  /** A live's chat messages (migration 0054). */
  live_chat_messages: { id: string; video_id: string; user_id: string; content: string; created_at: number };
  /** Viewers kept out of a live's chat until a time; one row per live and user. */
  live_chat_bans: { video_id: string; user_id: string; until: number; banned_by: string | null; created_at: number };
}
