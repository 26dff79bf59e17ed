import { describe, expect, it } from 'vitest';
import { MemoryAnswerStore } from './answer-store.js';

const answer = (bytes: number) => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.alloc(bytes, 'x') });

describe('MemoryAnswerStore', () => {
  it('serves what it keeps until a change, and drops an answer made before one', async () => {
    const store = new MemoryAnswerStore({ maxBytes: 1 << 20, ttlMs: 5000 });
    const { generation } = await store.lookup('a');
    await store.keep('a', generation!, answer(10));
    expect((await store.lookup('a')).answer?.body.length).toBe(10);
    await store.changed();
    expect((await store.lookup('a')).answer).toBeNull();
    // Made while the old generation was current, kept after the change: never served.
    await store.keep('b', generation!, answer(10));
    expect((await store.lookup('b')).answer).toBeNull();
  });

  it("moves a viewer's personal version on with each of their changes, never back to a number it gave", async () => {
    let now = 1000;
    const store = new MemoryAnswerStore({ maxBytes: 1 << 20, ttlMs: 5000, now: () => now });
    expect(await store.personalVersion('u1')).toBe(0);
    await store.personalChanged('u1');
    const first = await store.personalVersion('u1');
    expect(first).toBeGreaterThan(0);
    expect(await store.personalVersion('u2')).toBe(0);
    await store.personalChanged('u2');
    await store.personalChanged('u1');
    const second = await store.personalVersion('u1');
    expect(second).toBeGreaterThan(first);
    // A public change leaves the versions as they were.
    await store.changed();
    expect(await store.personalVersion('u1')).toBe(second);
    // Two TTLs after their last change a viewer is forgotten (back at 0) when another change sweeps;
    // their next change takes a number never given before.
    now += 10_001;
    await store.personalChanged('u3');
    expect(await store.personalVersion('u1')).toBe(0);
    await store.personalChanged('u1');
    expect(await store.personalVersion('u1')).toBeGreaterThan(await store.personalVersion('u3'));
  });

  it('forgets an answer once its time is up', async () => {
    let now = 1000;
    const store = new MemoryAnswerStore({ maxBytes: 1 << 20, ttlMs: 5000, now: () => now });
    await store.keep('a', 0, answer(10));
    now += 4999;
    expect((await store.lookup('a')).answer).not.toBeNull();
    now += 1;
    expect((await store.lookup('a')).answer).toBeNull();
    expect(store.size().entries).toBe(0);
  });

  it('stays within its bytes, the least recently used out first, and keeps no answer over an eighth of them', async () => {
    const store = new MemoryAnswerStore({ maxBytes: 64 * 1024, ttlMs: 5000 });
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await store.keep(k, 0, answer(7000));
    await store.lookup('a');
    for (const k of ['h', 'i', 'j', 'k']) await store.keep(k, 0, answer(7000));
    expect(store.size().bytes).toBeLessThanOrEqual(64 * 1024);
    expect((await store.lookup('a')).answer).not.toBeNull();
    expect((await store.lookup('b')).answer).toBeNull();
    await store.keep('huge', 0, answer(9000));
    expect((await store.lookup('huge')).answer).toBeNull();
  });
});
