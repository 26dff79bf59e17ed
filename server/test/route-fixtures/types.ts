import type { SignedIn, TestApp, TestResponse } from '../support/test-app.js';

/**
 * How to build a valid request for one route of the app. The bad-input suite breaks it in every way
 * it knows; the authorization matrix replays it as each kind of caller. Every route the app
 * registers needs one (see index.ts), so a new route cannot escape either suite.
 */
export interface RouteFixture {
  /**
   * public: anyone may call it. self: any signed-in user, acting on their own account or their own
   * like/subscription/comment. owner: only the owner of what the path names. moderator: moderators
   * and admins (signed out 401, users 403). admin: admins only (moderators 403 too).
   */
  access: 'public' | 'self' | 'owner' | 'moderator' | 'admin';
  /** An owner route that admins may use on anyone's resource too (moderators and other users may not). */
  adminsToo?: boolean;
  /** An owner route that moderators and admins may use on anyone's resource too (other users may not). */
  staffToo?: boolean;
  /** Sent as multipart/form-data rather than JSON. */
  multipart?: boolean;
  /** Makes the world a valid call needs (fresh users and rows each time) and describes the call. */
  valid(world: World): Promise<ValidCall>;
}

export interface ValidCall {
  /** Who the valid call is made as (the owner), or null for a signed-out call. */
  as: SignedIn | null;
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: Record<string, unknown>;
  /** Text fields, and file fields naming a test fixture file (image.png, clip.mp4...). */
  fields?: Record<string, string>;
  files?: Record<string, string>;
  /** Request headers a valid call needs beyond authentication (the tus protocol's, say). */
  headers?: Record<string, string>;
  /** A raw request body, for routes that take neither JSON nor multipart (sent with headers' content-type). */
  body?: string;
  /** Body keys whose blank value is accepted as "leave it as it is" rather than refused. */
  blankIgnored?: string[];
  /**
   * Body keys with the "wrong value" kinds of the bad-input suite they rightly accept, by its
   * label: a number setting takes `number`, a clearable one `null`, free text `empty string`.
   */
  accepts?: Record<string, string[]>;
  /** Every body key is optional (a body of {} or none at all is a valid call too). */
  emptyBodyAccepted?: boolean;
  /** The status the valid call answers. */
  status: number;
  /** What a refused call must leave unchanged, read back from the database. */
  readBack?: () => Promise<unknown>;
}

export interface World {
  t: TestApp;
  /** A fresh signed-in user. */
  user(): Promise<SignedIn>;
  /** A fresh signed-in moderator or admin (never pooled: its role would leak into other fixtures). */
  staff(role: 'moderator' | 'admin'): Promise<SignedIn>;
  /** A ready public video owned by owner (a database row; no media behind it). */
  video(owner: SignedIn): Promise<string>;
  /** A comment by author on a video. */
  comment(author: SignedIn, videoId: string): Promise<string>;
  /** A playlist of owner holding the given videos. */
  playlist(owner: SignedIn, videoIds?: string[]): Promise<string>;
  /** A stored media object, with its key. */
  media(): Promise<string>;
  call: TestApp['call'];
  get(url: string, as?: SignedIn): Promise<TestResponse>;
}
