import { randomBytes } from 'node:crypto';

/** URL-safe random ids (96 bits): never sequential, they appear in links. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}

export const toIso = (ms: number) => new Date(ms).toISOString();
