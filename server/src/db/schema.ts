import type { Generated } from 'kysely';
import type { AccountTables } from './schema-accounts.js';
import type { FederationTables } from './schema-federation.js';
import type { LiveTables } from './schema-lives.js';

export type { Role } from './schema-accounts.js';
export type Visibility = 'public' | 'unlisted' | 'private';

/**
 * Table shapes shared by both dialects. Times are epoch milliseconds and flags are 0/1 integers in
 * both SQLite and PostgreSQL, so one query code serves both. The tables of accounts, lives and
 * federation are in schema-accounts.ts, schema-lives.ts and schema-federation.ts.
 */
export interface Database extends AccountTables, LiveTables, FederationTables {
  settings: { key: string; value: string };
  /** Site-wide totals: 'public_videos' is the number of ready, published videos. */
  counters: { key: string; value: number };
  /**
   * Kept counts of a list's rows between boundaries of its sort order, so a deep page seeks to its
   * nearest boundary instead of skipping every row before it. A boundary is (num, txt, id_key):
   * num holds a numeric sort key (txt is ''), txt the title (num is 0); (-1, '', '') starts the
   * list. Kept exact by triggers on videos.
   */
  page_buckets: { list: string; sort: string; num: number; txt: string; id_key: string; n: number };
  page_bucket_versions: { list: string; sort: string; version: number };
  videos: {
    id: string;
    owner_id: string;
    title: string;
    description: string;
    /** Owner's username and full name, copied here so search needs no join. */
    owner_text: string;
    duration: number;
    views: number;
    status: 'processing' | 'ready' | 'failed';
    progress: number;
    failure_reason: string | null;
    /** public: listed everywhere; unlisted: anyone with the link; private: owner and admins. */
    visibility: Visibility;
    /** When a scheduled video turns public (it is private until then). */
    publish_at: number | null;
    /** Set while moderators have taken the video down; the owner sees hidden_reason. */
    hidden_at: number | null;
    hidden_reason: string | null;
    /** The owner's appeal of the current takedown (one per takedown). */
    appeal_text: string | null;
    appealed_at: number | null;
    /** Kept by video-access.ts: shown in lists, search, channels and feeds to everyone (0/1). */
    listed: number;
    /** Kept by video-access.ts: playable by anyone who has the link (0/1). */
    watchable: number;
    width: number | null;
    height: number | null;
    source_key: string | null;
    video_key: string | null;
    hls_key: string | null;
    storyboard_key: string | null;
    thumbnail_key: string;
    /** Size of the uploaded source, counted against its owner's storage quota. */
    source_bytes: number;
    likes_count: number;
    comments_count: number;
    /** A video of another server: its object's id and its page there; its media keys are then its origin's addresses. */
    remote_object_id: string | null;
    remote_url: string | null;
    created_at: number;
    updated_at: number;
  };
  comments: {
    id: string;
    video_id: string;
    owner_id: string;
    content: string;
    /** The top-level comment this one replies to; null for a top-level comment. */
    parent_id: string | null;
    /** Set while the video's owner has pinned it (one per video, shown first). */
    pinned_at: number | null;
    /** Set while the video's owner has given it a heart. */
    hearted_at: number | null;
    /** 1 while its author is banned (kept by bans): the comment is then gone for everyone else. */
    owner_banned: Generated<number>;
    likes_count: number;
    /** A comment another server sent (migration 0060): its Note's id and its page there. */
    remote_object_id: string | null;
    remote_url: string | null;
    created_at: number;
    updated_at: number;
  };
  likes: {
    user_id: string;
    target_type: 'video' | 'comment';
    target_id: string;
    created_at: number;
  };
  subscriptions: { subscriber_id: string; channel_id: string; created_at: number };
  playlists: {
    id: string;
    owner_id: string;
    name: string;
    description: string;
    visibility: Visibility;
    videos_count: number;
    created_at: number;
    updated_at: number;
  };
  playlist_videos: { playlist_id: string; video_id: string; position: number; added_at: number };
  watch_history: {
    user_id: string;
    video_id: string;
    watched_at: number;
    /** Seconds into the video where the user last stopped; null if never reported. */
    position: number | null;
  };
  view_events: { video_id: string; viewer_key: string; counted_at: number };
  /** Counted views per video per UTC day (days since 1970-01-01). */
  video_daily_views: { video_id: string; day: number; views: number };
  /**
   * The trending list as the last rebuild ranked it, best first (position 1). Rebuilt whole on a
   * schedule; may name videos no longer listed or deleted, which readers skip.
   */
  trending_videos: { position: number; video_id: string; score: number; built_at: number };
  /**
   * Up next's ranking of a video as last made (a JSON array of candidate ids, best first), shared
   * by every process and remade once older than the freshness window. May name videos no longer
   * listed, which readers skip; deleted with its video.
   */
  related_rankings: { video_id: string; ranked: string; made_at: number };
  /** PostgreSQL only: every word the videos' search index has held, kept by triggers (0038). */
  search_words: { word: string };
  /** Reports of a video, comment or channel; one open report per reporter and target. */
  reports: {
    id: string;
    reporter_id: string;
    target_type: 'video' | 'comment' | 'channel';
    target_id: string;
    /** A REPORT_REASONS value, or 'appeal' for an owner's appeal of a takedown. */
    reason: string;
    note: string;
    state: 'open' | 'resolved' | 'dismissed';
    resolution: string | null;
    resolved_by: string | null;
    resolved_at: number | null;
    created_at: number;
  };
  /** Every moderator and admin action: who, what, on which item, when and why. */
  audit_log: {
    id: string;
    actor_id: string | null;
    actor_username: string;
    action: string;
    target_type: string;
    target_id: string;
    reason: string | null;
    /** JSON object: what changed. */
    details: string;
    created_at: number;
  };
  /** Resumable uploads in progress; the bytes are in the upload store under `uploads/<id>`. */
  uploads: {
    id: string;
    owner_id: string;
    size: number;
    filename: string;
    /** Set while the upload is being turned into a video, so only one request does it. */
    claimed_at: number | null;
    created_at: number;
    expires_at: number;
  };
  /** What a user is told about: new videos of followed channels, replies, comments, their uploads. */
  notifications: {
    id: string;
    user_id: string;
    kind: 'new_video' | 'comment_reply' | 'video_comment' | 'upload_ready' | 'upload_failed' | 'live_started';
    /** Names the event, unique per recipient: the same event never notifies twice. */
    event_key: string;
    actor_id: string | null;
    video_id: string | null;
    comment_id: string | null;
    /** Why an upload failed. */
    reason: string | null;
    read_at: number | null;
    created_at: number;
  };
  jobs: {
    id: Generated<number>;
    name: string;
    payload: string;
    priority: number;
    status: 'queued' | 'running' | 'done' | 'failed';
    attempts: number;
    max_attempts: number;
    run_at: number;
    locked_by: string | null;
    locked_until: number | null;
    last_error: string | null;
    /** Whose work the job is (the uploader), for fair order; null for jobs of nobody in particular. */
    fair_key: string | null;
    /** Taken in (priority, fair_rank, run_at) order within its lane. */
    fair_rank: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  /** A video's caption track in one language: a cleaned WebVTT file in storage. */
  captions: {
    id: string;
    video_id: string;
    /** Canonical BCP 47 tag; unique per video. */
    language: string;
    label: string;
    storage_key: string;
    cue_count: number;
    created_at: number;
  };
  /** One cue of a caption, its words alone, indexed for search (caption_cues_fts / search_vector). */
  caption_cues: {
    id: Generated<number>;
    caption_id: string;
    video_id: string;
    start_ms: number;
    text: string;
  };
  /** A backup taken (backup/): the command's, a scheduled turn's, or the one before a migration. */
  backup_runs: {
    id: string;
    trigger: 'manual' | 'scheduled' | 'before-migration';
    status: 'running' | 'ok' | 'failed';
    /** The backup's folder: its `.partial` name while running, its final name once good. */
    path: string;
    /** A scheduled backup's turn; unique, so one process takes each. */
    slot: number | null;
    /** The owner tag of the process taking it (lib/process-owner.ts). */
    owner: string;
    started_at: number;
    finished_at: number | null;
    bytes: number | null;
    error: string | null;
    /** When its folder was removed (scheduled backups past BACKUP_KEEP). */
    removed_at: number | null;
  };
}
