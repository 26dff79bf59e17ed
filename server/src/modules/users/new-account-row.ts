import type { Role } from '../../db/schema.js';
import type { UserRow } from './users.repository.js';

/**
 * The row of an account made on this site (a sign-up, with a password or through a provider): every
 * column, so that a new one is decided here once and not in each place that makes accounts.
 */
export function newAccountRow(a: {
  id: string;
  username: string;
  email: string;
  fullName: string;
  passwordHash: string;
  avatarKey: string | null;
  coverKey: string | null;
  role: Role;
  /** An admin approves it before it may sign in (sign-ups by approval); the site's own admins never wait. */
  approvalPending: boolean;
  /** Null while the address waits for its check. */
  emailVerifiedAt: number | null;
  now: number;
}): UserRow {
  return {
    id: a.id,
    username: a.username,
    email: a.email,
    full_name: a.fullName,
    password_hash: a.passwordHash,
    avatar_key: a.avatarKey,
    cover_key: a.coverKey,
    is_demo: 0,
    role: a.role,
    banned_at: null,
    ban_reason: null,
    approval_pending: a.approvalPending ? 1 : 0,
    quota_bytes: null,
    daily_quota_bytes: null,
    subscribers_count: 0,
    videos_count: 0,
    email_verified_at: a.emailVerifiedAt,
    live_allowed: 0,
    // Not chosen yet: mails follow the language of the request that asks for them.
    language: null,
    remote_actor_id: null,
    remote_url: null,
    remote_inbox: null,
    remote_shared_inbox: null,
    created_at: a.now,
    updated_at: a.now,
  };
}
