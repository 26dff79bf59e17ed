import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../../http/auth.js';
import { LiveSessions } from './live-sessions.js';

const user = (id: string, sessionId: string): AuthUser => ({ id, username: `name-${id}`, sessionId, isDemo: false, role: 'user' });

describe('LiveSessions', () => {
  it('takes a session found alive as alive for the TTL, then asks again', () => {
    const live = new LiveSessions({ ttlMs: 1_000 });
    live.remember(user('u1', 's1'), 10_000, live.mark());
    expect(live.find('s1', 'u1', 10_999)).toEqual(user('u1', 's1'));
    expect(live.find('s1', 'u1', 11_000)).toBeNull();
    // Gone for good once expired, not found again at an earlier clock.
    expect(live.find('s1', 'u1', 10_500)).toBeNull();
  });

  it('answers only for the user the token names', () => {
    const live = new LiveSessions({ ttlMs: 1_000 });
    live.remember(user('u1', 's1'), 0, live.mark());
    expect(live.find('s1', 'someone-else', 1)).toBeNull();
    expect(live.find('s1', 'u1', 1)).toBeNull();
  });

  it('forgets one session, every session of an account, or all of them', () => {
    const live = new LiveSessions({ ttlMs: 1_000 });
    for (const [u, s] of [
      ['u1', 's1'],
      ['u1', 's2'],
      ['u2', 's3'],
      ['u3', 's4'],
    ])
      live.remember(user(u, s), 0, live.mark());
    live.forgetSession('s1');
    expect(live.find('s1', 'u1', 1)).toBeNull();
    expect(live.find('s2', 'u1', 1)).not.toBeNull();
    live.forgetUser('u1');
    expect(live.find('s2', 'u1', 1)).toBeNull();
    expect(live.find('s3', 'u2', 1)).not.toBeNull();
    live.forgetAll();
    expect(live.find('s3', 'u2', 1)).toBeNull();
    expect(live.find('s4', 'u3', 1)).toBeNull();
  });

  it('does not remember a lookup that began before a forget (a logout racing a request)', () => {
    const live = new LiveSessions({ ttlMs: 1_000 });
    const mark = live.mark();
    live.forgetSession('s1');
    live.remember(user('u1', 's1'), 0, mark);
    expect(live.find('s1', 'u1', 1)).toBeNull();
    live.remember(user('u1', 's1'), 0, live.mark());
    expect(live.find('s1', 'u1', 1)).not.toBeNull();
  });

  it('hands out copies, so one request cannot change what the next is handed', () => {
    const live = new LiveSessions({ ttlMs: 1_000 });
    live.remember(user('u1', 's1'), 0, live.mark());
    const first = live.find('s1', 'u1', 1)!;
    first.role = 'admin';
    expect(live.find('s1', 'u1', 1)!.role).toBe('user');
  });

  it('keeps at most `max` sessions, dropping the least recently remembered', () => {
    const live = new LiveSessions({ ttlMs: 1_000, max: 2 });
    live.remember(user('u1', 's1'), 0, live.mark());
    live.remember(user('u2', 's2'), 0, live.mark());
    live.remember(user('u1', 's1'), 0, live.mark());
    live.remember(user('u3', 's3'), 0, live.mark());
    expect(live.find('s2', 'u2', 1)).toBeNull();
    expect(live.find('s1', 'u1', 1)).not.toBeNull();
    expect(live.find('s3', 'u3', 1)).not.toBeNull();
  });

  it('remembers nothing with a TTL of 0', () => {
    const live = new LiveSessions({ ttlMs: 0 });
    live.remember(user('u1', 's1'), 0, live.mark());
    expect(live.find('s1', 'u1', 0)).toBeNull();
  });
});
