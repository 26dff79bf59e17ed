import { describe, expect, it } from 'vitest';
import { KeptCheck } from './kept-check.js';

/** A check whose answers the test gives, one per call, and that can be held back until released. */
function scriptedCheck(answers: Array<boolean | Error>) {
  let calls = 0;
  let release: (() => void) | null = null;
  let hold = false;
  const check = async () => {
    const answer = answers[calls++] ?? true;
    if (hold) await new Promise<void>((r) => (release = r));
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return {
    check,
    calls: () => calls,
    hold: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

describe('KeptCheck', () => {
  it('checks on the first ask and gives the kept answer while it is fresh', async () => {
    let now = 0;
    const c = scriptedCheck([true, false]);
    const kept = new KeptCheck(c.check, { freshMs: 1000, staleMs: 10_000, now: () => now });
    expect(await kept.ask()).toBe(true);
    now = 900;
    expect(await kept.ask()).toBe(true);
    expect(c.calls()).toBe(1);
  });

  it('gives an old answer at once while a new check runs, and the new one after it', async () => {
    let now = 0;
    const c = scriptedCheck([true, false]);
    const kept = new KeptCheck(c.check, { freshMs: 1000, staleMs: 10_000, now: () => now });
    await kept.ask();
    now = 2000;
    c.hold();
    expect(await kept.ask()).toBe(true);
    expect(c.calls()).toBe(2);
    c.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await kept.ask()).toBe(false);
    expect(c.calls()).toBe(2);
  });

  it('runs one check however many ask while it runs', async () => {
    let now = 0;
    const c = scriptedCheck([true, true]);
    const kept = new KeptCheck(c.check, { freshMs: 1000, staleMs: 10_000, now: () => now });
    c.hold();
    const first = [kept.ask(), kept.ask(), kept.ask()];
    c.release();
    expect(await Promise.all(first)).toEqual([true, true, true]);
    now = 5000;
    c.hold();
    await Promise.all([kept.ask(), kept.ask()]);
    expect(c.calls()).toBe(2);
    c.release();
  });

  it('makes askers wait for a new check once the kept answer is stale, and counts a throw as no', async () => {
    let now = 0;
    const c = scriptedCheck([true, new Error('the disk is gone')]);
    const kept = new KeptCheck(c.check, { freshMs: 1000, staleMs: 10_000, now: () => now });
    expect(await kept.ask()).toBe(true);
    now = 20_000;
    expect(await kept.ask()).toBe(false);
    expect(c.calls()).toBe(2);
  });
});
