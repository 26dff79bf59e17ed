import type { AuthUser } from '../../http/auth.js';
import { unauthorized } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { LiveSessions } from './live-sessions.js';
import type { SessionsRepository } from './sessions.repository.js';
import {
  ACCESS_TOKEN_TTL_MS,
  hashToken,
  newRefreshToken,
  REFRESH_TOKEN_TTL_MS,
  signAccessToken,
  successorRefreshToken,
  verifyAccessToken,
} from '../../http/tokens.js';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
}

/** Rotations a late racer may follow from its token to the live one. */
const MAX_GRACE_STEPS = 5;

/**
 * Sessions, one per signed-in device. Refresh tokens rotate on every use and are stored hashed;
 * presenting a rotated token again revokes that device's session, since it means the token leaked.
 */
export class SessionService {
  private readonly live: LiveSessions;

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly secret: string,
    private readonly options: { reuseGraceMs: number } = { reuseGraceMs: 10_000 },
  ) {
    this.live = new LiveSessions();
  }

  async open(userId: string, userAgent: string | null): Promise<IssuedTokens> {
    const now = Date.now();
    const sessionId = newId();
    const refreshToken = newRefreshToken();
    await this.sessions.create({
      id: sessionId,
      userId,
      userAgent: userAgent?.slice(0, 300) ?? null,
      now,
      expiresAt: now + REFRESH_TOKEN_TTL_MS,
      tokenHash: hashToken(refreshToken),
    });
    return { sessionId, refreshToken, accessToken: this.access(userId, sessionId, now) };
  }

  /**
   * Rotates a refresh token. A token already rotated within the grace window (two tabs or two
   * requests of one page load refreshing at once) leads to the same successor and the same session;
   * presented again after that, it counts as stolen and the session is revoked.
   */
  async refresh(refreshToken: string | undefined): Promise<IssuedTokens> {
    if (!refreshToken) throw unauthorized('Refresh token is missing');
    const now = Date.now();
    let token = refreshToken;
    // A chain of rotations inside the window is followed to its live end; a few steps at most.
    for (let step = 0; step < MAX_GRACE_STEPS; step++) {
      const hash = hashToken(token);
      const found = await this.sessions.findByRefreshToken(hash);
      if (!found || found.revoked_at !== null || found.expires_at <= now) throw unauthorized('Refresh token is invalid or expired');
      if (found.banned_at !== null) throw unauthorized('This account is banned');
      const next = successorRefreshToken(this.secret, token);
      if (found.used_at === null) {
        const issued = { sessionId: found.id, accessToken: this.access(found.user_id, found.id, now) };
        // Reached by following a rotation: the winner already holds this token; share it, do not rotate it away.
        if (token !== refreshToken) return { ...issued, refreshToken: token };
        if (await this.sessions.rotate(found.id, hash, hashToken(next), now, now + REFRESH_TOKEN_TTL_MS)) return { ...issued, refreshToken: next };
        // Another request rotated it a moment ago: look again, now as a just-used token.
        continue;
      }
      if (now - found.used_at > this.options.reuseGraceMs) break;
      token = next;
    }
    const found = await this.sessions.findByRefreshToken(hashToken(refreshToken));
    if (found) {
      await this.sessions.revoke(found.id, now);
      this.live.forgetSession(found.id);
    }
    throw unauthorized('Refresh token was already used; please sign in again');
  }

  async close(sessionId: string) {
    await this.sessions.revoke(sessionId, Date.now());
    this.live.forgetSession(sessionId);
  }

  async closeOthers(userId: string, keepSessionId: string) {
    await this.sessions.revokeAllExcept(userId, keepSessionId, Date.now());
    this.live.forgetUser(userId);
  }

  /**
   * The account changed in a way its sessions carry (banned, deleted, a new role or username):
   * its sessions are looked up again on their next request. Call after the change has committed.
   */
  accountChanged(userId: string): void {
    this.live.forgetUser(userId);
  }

  /** Sessions of many accounts ended at once (the demo account turned off): all are looked up again. */
  forgetLiveSessions(): void {
    this.live.forgetAll();
  }

  /**
   * An access token is good while its signature holds, it has not expired and its session lives;
   * a session found alive within the last second is taken as alive (LiveSessions).
   */
  async verify(token: string): Promise<AuthUser | null> {
    const now = Date.now();
    const claims = verifyAccessToken(this.secret, token, now);
    if (!claims) return null;
    const known = this.live.find(claims.sid, claims.sub, now);
    if (known) return known;
    const mark = this.live.mark();
    const row = await this.sessions.findLiveUser(claims.sid, claims.sub, now);
    if (!row) return null;
    const user = { id: row.id, username: row.username, sessionId: claims.sid, isDemo: row.is_demo === 1, role: row.role };
    this.live.remember(user, now, mark);
    return user;
  }

  private access(userId: string, sessionId: string, now: number) {
    return signAccessToken(this.secret, { sub: userId, sid: sessionId, exp: now + ACCESS_TOKEN_TTL_MS });
  }
}
