import { createHash } from 'node:crypto';

/** Who is asking to count a view: a signed-in user, or an anonymous client. */
export interface ViewSource {
  userId: string | null;
  ip: string;
  userAgent: string;
}

/**
 * A signed-in viewer is their account, wherever they watch from; an anonymous one is their address
 * and browser. Both are hashed, so the table names nobody (and keeps no id of a deleted account).
 */
export function viewerKey(viewer: ViewSource): string {
  const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 32);
  if (viewer.userId) return `u:${hash(viewer.userId)}`;
  return `a:${hash(`${viewer.ip}\n${viewer.userAgent}`)}`;
}
