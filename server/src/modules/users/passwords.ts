import argon2 from 'argon2';

/** argon2id's cost: memory in KiB and passes over it (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_ITERATIONS). */
export interface PasswordCost {
  memoryKib: number;
  iterations: number;
}

/** The library's defaults, stronger than OWASP's minimum (19 MiB, 2 passes): what every site runs unless its settings say otherwise. */
export const STANDARD_PASSWORD_COST: PasswordCost = { memoryKib: 65_536, iterations: 3 };

/**
 * Passwords hashed with argon2id at the site's cost. A stored hash names the cost it was made
 * with, so a hash made at one cost is still checked after the cost changes.
 */
export class Passwords {
  private dummy: Promise<string> | undefined;

  constructor(private readonly cost: PasswordCost = STANDARD_PASSWORD_COST) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: this.cost.memoryKib, timeCost: this.cost.iterations });
  }

  /**
   * Whether a password matches a stored hash. An account made by single sign-on has no password
   * (an empty hash): nothing matches it, after the same work as a real check, against a hash
   * nothing is expected to match, so that the answer takes the same time.
   */
  async matches(hash: string | null | undefined, password: string): Promise<boolean> {
    const matches = await argon2.verify(hash || (await (this.dummy ??= this.hash('not-a-real-password'))), password);
    return matches && !!hash;
  }
}
