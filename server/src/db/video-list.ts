import type { Database, Visibility } from './schema.js';

/** What every video list and search shares: the card's columns, the sort columns and the filter. */
type VideoRow = Database['videos'];
export type SortField = 'createdAt' | 'views' | 'duration' | 'title';
export type SortType = 'asc' | 'desc';

/** The query's sortBy mapped to a fixed column: nothing from the request is ever used as a name. */
export const SORT_COLUMNS = {
  createdAt: 'videos.created_at',
  views: 'videos.views',
  duration: 'videos.duration',
  title: 'videos.title',
} as const;

/** Columns of a video card: the video and the few owner fields it shows. */
export const SUMMARY_COLUMNS = [
  'videos.id',
  'videos.owner_id',
  'videos.title',
  'videos.description',
  'videos.duration',
  'videos.views',
  'videos.status',
  'videos.progress',
  'videos.visibility',
  'videos.publish_at',
  'videos.hidden_at',
  'videos.watchable',
  'videos.thumbnail_key',
  'videos.video_key',
  'videos.source_key',
  'videos.created_at',
  'videos.updated_at',
  'videos.remote_url',
  'users.username as owner_username',
  'users.full_name as owner_full_name',
  'users.avatar_key as owner_avatar_key',
] as const;

export interface VideoSummaryRow {
  id: string;
  owner_id: string;
  title: string;
  description: string;
  duration: number;
  views: number;
  status: VideoRow['status'];
  progress: number;
  visibility: Visibility;
  publish_at: number | null;
  hidden_at: number | null;
  watchable: number;
  thumbnail_key: string;
  video_key: string | null;
  source_key: string | null;
  created_at: number;
  updated_at: number;
  /** Set on a video of another server's channel: its page there. */
  remote_url?: string | null;
  owner_username: string;
  owner_full_name: string;
  owner_avatar_key: string | null;
}

export interface VideoListFilter {
  /** Only this owner's videos. */
  ownerId?: string;
  /** Every state of the owner's videos (the owner looking at their own channel); else listed ones only. */
  includeHidden: boolean;
  /** Search words (already split); empty means no search. */
  words: string[];
  /** Rank by search relevance (then recency) instead of sortBy. */
  byRelevance: boolean;
  sortBy: SortField;
  sortType: SortType;
  limit: number;
  offset: number;
}
