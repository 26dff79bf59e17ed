import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../../db/video-list.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';

export type LiveRow = Selectable<Database['lives']>;
type VideoRow = Database['videos'];

/** A card of the live list: the video's summary columns and its live state. */
export interface LiveCardRow extends VideoSummaryRow {
  live_status: LiveRow['status'];
  live_scheduled_start: number | null;
  live_started_at: number | null;
  live_ended_at: number | null;
  live_viewers: number;
}

/** The lives table; the video row of a new live is written here too, in the same transaction. */
export class LiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The video and its live state together, with the video's access flags and its owner's counts. */
  async create(video: VideoRow, live: Omit<LiveRow, 'viewers'>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await new VideoWritesRepository(trx).insert(video);
      await trx.insertInto('lives').values(live).execute();
      await refreshVideoAccess(trx, { ownerId: video.owner_id, videoId: video.id });
    });
  }

  find(videoId: string): Promise<LiveRow | undefined> {
    return this.db.selectFrom('lives').selectAll().where('video_id', '=', videoId).executeTakeFirst();
  }

  findByKeyHash(hash: string): Promise<LiveRow | undefined> {
    return this.db.selectFrom('lives').selectAll().where('stream_key_hash', '=', hash).executeTakeFirst();
  }

  async setKey(videoId: string, hash: string, sealed: string): Promise<void> {
    await this.db.updateTable('lives').set({ stream_key_hash: hash, stream_key_sealed: sealed }).where('video_id', '=', videoId).execute();
  }

  /**
   * On air: started now unless it had started before (an encoder resuming); an ended live stays
   * ended. Answers 'started' for the first admission of a session, 'resumed' for an encoder back
   * within the window, null when the live is over (or gone).
   */
  async goLive(videoId: string, now: number, ingestOwner: string): Promise<'started' | 'resumed' | null> {
    // Two steps, each one conditional update: only one admission can be the one that started the session.
    const first = await this.db
      .updateTable('lives')
      .set({ status: 'live', started_at: now, last_data_at: now, ingest_owner: ingestOwner })
      .where('video_id', '=', videoId)
      .where('status', '<>', 'ended')
      .where('started_at', 'is', null)
      .executeTakeFirst();
    if (Number(first.numUpdatedRows) > 0) return 'started';
    const res = await this.db
      .updateTable('lives')
      .set((eb) => ({ status: 'live', started_at: eb.fn.coalesce('started_at', eb.val(now)), last_data_at: now, ingest_owner: ingestOwner }))
      .where('video_id', '=', videoId)
      .where('status', '<>', 'ended')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0 ? 'resumed' : null;
  }

  /** The chat's slow mode of this live. */
  async setChatSlowMode(videoId: string, seconds: number): Promise<void> {
    await this.db.updateTable('lives').set({ chat_slow_mode_seconds: seconds }).where('video_id', '=', videoId).execute();
  }

  async setHealth(videoId: string, health: string, at: number): Promise<void> {
    await this.db.updateTable('lives').set({ health, last_data_at: at }).where('video_id', '=', videoId).where('status', '=', 'live').execute();
  }

  /** The lives marked on air, with the process that has each. */
  onAir(): Promise<{ video_id: string; ingest_owner: string | null }[]> {
    return this.db.selectFrom('lives').select(['video_id', 'ingest_owner']).where('status', '=', 'live').execute();
  }

  /** Ends these lives if they are still on air. */
  async endOnAir(videoIds: string[], now: number): Promise<void> {
    if (videoIds.length === 0) return;
    await this.db.updateTable('lives').set({ status: 'ended', ended_at: now }).where('video_id', 'in', videoIds).where('status', '=', 'live').execute();
  }

  /** A permanent live, its session over, waits for the next one with the same key. */
  async nextSession(videoId: string): Promise<void> {
    await this.db
      .updateTable('lives')
      .set({ status: 'upcoming', started_at: null, ended_at: null, last_data_at: null, health: null, viewers: 0 })
      .where('video_id', '=', videoId)
      .where('status', '=', 'ended')
      .execute();
  }

  /** Ends a live that is not over yet; false when it already was (or is gone). */
  async end(videoId: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('lives')
      .set({ status: 'ended', ended_at: now })
      .where('video_id', '=', videoId)
      .where('status', '<>', 'ended')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Lives on air that anyone may find (listed videos), most viewers first, then the latest started. */
  async listOnAir(offset: number, limit: number): Promise<{ rows: LiveCardRow[]; total: number }> {
    const base = this.db
      .selectFrom('lives')
      .innerJoin('videos', 'videos.id', 'lives.video_id')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .where('lives.status', '=', 'live')
      .where('videos.listed', '=', 1);
    const [rows, count] = await Promise.all([
      base
        .select(SUMMARY_COLUMNS)
        .select([
          'lives.status as live_status',
          'lives.scheduled_start as live_scheduled_start',
          'lives.started_at as live_started_at',
          'lives.ended_at as live_ended_at',
          'lives.viewers as live_viewers',
        ])
        .orderBy('lives.viewers', 'desc')
        .orderBy('lives.started_at', 'desc')
        .orderBy('lives.video_id')
        .offset(offset)
        .limit(limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
