import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { knownPosition, sessionPositions } from './position-store';
import { useForgetPositionsOnAccountChange } from './use-position-tracking';

afterEach(() => sessionPositions.clear());

describe('places remembered in this tab', () => {
  it('are forgotten when the viewer signs out or another account signs in, not on a re-render', () => {
    const { rerender } = renderHook(({ userId }: { userId: string | null }) => useForgetPositionsOnAccountChange(userId), {
      initialProps: { userId: 'alice' as string | null },
    });
    sessionPositions.set('v1', 42);
    rerender({ userId: 'alice' });
    expect(knownPosition('v1', true, null)).toBe(42);

    rerender({ userId: null });
    expect(sessionPositions.has('v1')).toBe(false);

    rerender({ userId: 'bob' });
    sessionPositions.set('v2', 12);
    rerender({ userId: 'carol' });
    // Carol sees the server's place for her, not the one Bob left in this tab.
    expect(knownPosition('v2', true, 3)).toBe(3);
  });
});
