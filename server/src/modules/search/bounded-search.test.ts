import { describe, expect, it } from 'vitest';
import { estimate } from './bounded-search.js';

describe('estimate', () => {
  it('is exact up to the cap and scales the newest share of the catalogue above it', () => {
    expect(estimate(5, 5, 10, 100)).toEqual({ matches: 5, total: 5 });
    expect(estimate(6, 5, 10, 100)).toEqual({ matches: 6, total: 60 });
    // Never below what was counted, whatever the spans say.
    expect(estimate(6, 5, 0, 0)).toEqual({ matches: 6, total: 6 });
    expect(estimate(6, 5, 10, 5)).toEqual({ matches: 6, total: 6 });
  });
});
