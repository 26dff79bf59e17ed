import { describe, expect, it } from 'vitest';
import { Passwords, STANDARD_PASSWORD_COST } from './passwords.js';

describe('Passwords', () => {
  const standard = new Passwords();
  const cheap = new Passwords({ memoryKib: 1024, iterations: 1 });

  it('hashes with argon2id at its cost, and never keeps the password', async () => {
    const hash = await standard.hash('correct-horse-1');
    expect(hash).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${STANDARD_PASSWORD_COST.memoryKib},p=4,t=${STANDARD_PASSWORD_COST.iterations}\\$`));
    expect(hash).not.toContain('correct-horse-1');
    expect(await cheap.hash('correct-horse-1')).toMatch(/^\$argon2id\$v=19\$m=1024,p=4,t=1\$/);
  });

  it('checks a hash at the cost it was made with, whatever the cost now', async () => {
    const madeCheap = await cheap.hash('correct-horse-1');
    const madeStandard = await standard.hash('correct-horse-1');
    expect(await standard.matches(madeCheap, 'correct-horse-1')).toBe(true);
    expect(await cheap.matches(madeStandard, 'correct-horse-1')).toBe(true);
    expect(await cheap.matches(madeStandard, 'wrong-horse-1')).toBe(false);
  });

  it('matches nothing against an account with no password', async () => {
    expect(await cheap.matches('', '')).toBe(false);
    expect(await cheap.matches(null, 'not-a-real-password')).toBe(false);
    expect(await cheap.matches(undefined, 'anything')).toBe(false);
  });
});
