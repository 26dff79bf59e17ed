import type { Device, SignedOutDevices } from '@reelhouse/contract';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, forbidden, notFound, unauthorized } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import { describeUserAgent } from './device-names.js';
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

/** Where a request comes from: its user agent and address (request.ip, which honours TRUST_PROXY). */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

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

  async open(userId: string, client: ClientInfo): Promise<IssuedTokens> {
    const now = Date.now();
    const sessionId = newId();
    const refreshToken = newRefreshToken();
    await this.sessions.create({
      id: sessionId,
      userId,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      ip: client.ip?.slice(0, 64) ?? null,
      now,
      expiresAt: now + REFRESH_TOKEN_TTL_MS,
      tokenHash: hashToken(refreshToken),
    });
    return { sessionId, refreshToken, accessToken: this.access(userId, sessionId, now) };
  }

  /**
   * Rotates a refresh token. A token already rotated within the grace window (two tabs or two
   * requests of one page load refreshing at once) leads to the same successor and the same session;
   * presented again after that, it counts as stolen and the session is revoked. The session takes
   * the address of the request that rotates its token.
   */
  async refresh(refreshToken: string | undefined, ip: string | null): Promise<IssuedTokens> {
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
        if (await this.sessions.rotate(found.id, hash, hashToken(next), now, now + REFRESH_TOKEN_TTL_MS, ip?.slice(0, 64) ?? null))
          return { ...issued, refreshToken: next };
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

  /** Ends every other session of the account; returns how many were live. */
  async closeOthers(userId: string, keepSessionId: string): Promise<number> {
    const closed = await this.sessions.revokeAllExcept(userId, keepSessionId, Date.now());
    this.live.forgetUser(userId);
    return closed;
  }

  /**
   * The account's signed-in devices, most recently active first. The device asking is active now,
   * whatever its session last stored (that moves only when its tokens are refreshed): it comes first.
   * The demo account is shared by strangers: it sees only the device asking, never the others' addresses.
   */
  async devices(user: AuthUser): Promise<Device[]> {
    const now = Date.now();
    const rows = await this.sessions.listLive(user.id, now);
    const current = rows.filter((row) => row.id === user.sessionId);
    const others = user.isDemo ? [] : rows.filter((row) => row.id !== user.sessionId);
    return [...current, ...others].map((row) => ({
      _id: row.id,
      ...describeUserAgent(row.user_agent),
      address: row.ip,
      createdAt: toIso(Number(row.created_at)),
      lastActiveAt: toIso(row.id === user.sessionId ? now : Number(row.last_used_at)),
      current: row.id === user.sessionId,
    }));
  }

  /**
   * Signs one of the account's other devices out at once. The device asking signs out with logout,
   * which also clears its cookies; another account's session reads as missing.
   */
  async signOutDevice(user: AuthUser, sessionId: string): Promise<void> {
    if (user.isDemo) throw forbidden('The demo account cannot sign out other devices');
    if (sessionId === user.sessionId) throw badRequest('This is the device you are using: sign out instead');
    if (!(await this.sessions.findLiveOf(user.id, sessionId, Date.now()))) throw notFound('Session');
    await this.close(sessionId);
  }

  async signOutOtherDevices(user: AuthUser): Promise<SignedOutDevices> {
    if (user.isDemo) throw forbidden('The demo account cannot sign out other devices');
    return { signedOut: await this.closeOthers(user.id, user.sessionId) };
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
