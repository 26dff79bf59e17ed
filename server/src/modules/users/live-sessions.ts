import type { AuthUser } from '../../http/auth.js';

/** How long a session found alive is taken as alive without asking the database again. */
export const LIVE_SESSION_TTL_MS = 1_000;
/** Sessions remembered at most; the least recently used go first. */
const MAX_REMEMBERED = 20_000;

interface Remembered {
  user: AuthUser;
  until: number;
}

/**
 * The sessions this process found alive in the last second, so that a signed-in viewer's burst of
 * requests (a page load asks for five things at once; a busy client more) costs one session lookup
 * rather than one each.
 *
 * What ends or changes a session on this process forgets it at once: logout, a password change,
 * a reused refresh token, a ban, a role or username change, a deleted account. Another API process,
 * or the operator's command line, cannot reach this memory: there a session ended a moment ago is
 * still taken for alive for up to `LIVE_SESSION_TTL_MS`. Only sessions found alive are remembered;
 * a token whose session is gone asks the database each time.
 */
export class LiveSessions {
  private readonly remembered = new Map<string, Remembered>();
  /** Moves on every forget, so that a lookup begun before a logout is not remembered after it. */
  private forgets = 0;

  constructor(private readonly opts: { ttlMs: number; max?: number } = { ttlMs: LIVE_SESSION_TTL_MS }) {}

  /** The session's user, if it was found alive within the TTL and for this very user. */
  find(sessionId: string, userId: string, now: number): AuthUser | null {
    const entry = this.remembered.get(sessionId);
    if (!entry) return null;
    if (entry.until <= now || entry.user.id !== userId) {
      this.remembered.delete(sessionId);
      return null;
    }
    // A copy: a request may not change what the next request is handed.
    return { ...entry.user };
  }

  /** Taken before a session is looked up in the database, and handed back to `remember`. */
  mark(): number {
    return this.forgets;
  }

  /** Remembers a session found alive, unless something was forgotten since its lookup began. */
  remember(user: AuthUser, now: number, mark: number): void {
    if (this.opts.ttlMs <= 0 || mark !== this.forgets) return;
    this.remembered.delete(user.sessionId);
    this.remembered.set(user.sessionId, { user, until: now + this.opts.ttlMs });
    const max = this.opts.max ?? MAX_REMEMBERED;
    // Map keeps insertion order: the first entries are the least recently remembered.
    for (const key of this.remembered.keys()) {
      if (this.remembered.size <= max) break;
      this.remembered.delete(key);
    }
  }

  forgetSession(sessionId: string): void {
    this.forgets++;
    this.remembered.delete(sessionId);
  }

  /** Every remembered session of the account: something it is signed in with has changed. */
  forgetUser(userId: string): void {
    this.forgets++;
    for (const [sessionId, entry] of this.remembered) {
      if (entry.user.id === userId) this.remembered.delete(sessionId);
    }
  }

  forgetAll(): void {
    this.forgets++;
    this.remembered.clear();
  }
}
