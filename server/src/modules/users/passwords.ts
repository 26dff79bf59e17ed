import argon2 from 'argon2';

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

let dummy: Promise<string> | undefined;
/** A hash nothing is expected to match, checked against when there is no real one, so that it costs the same time. */
const dummyHash = () => (dummy ??= hashPassword('not-a-real-password'));

/**
 * Whether a password matches a stored hash. An account made by single sign-on has no password (an
 * empty hash): nothing matches it, after the same work as a real check.
 */
export async function passwordMatches(hash: string | null | undefined, password: string): Promise<boolean> {
  const matches = await argon2.verify(hash || (await dummyHash()), password);
  return matches && !!hash;
}
