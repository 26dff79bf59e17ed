import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('gives 16 URL-safe characters, never the same twice, across many pools of random bytes', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
