import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useObjectUrl } from './use-object-url';

describe('useObjectUrl', () => {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('makes a URL per file and revokes the old one on change and on unmount', () => {
    let n = 0;
    const created: string[] = [];
    const revoked: string[] = [];
    URL.createObjectURL = () => {
      const u = `blob:test/${++n}`;
      created.push(u);
      return u;
    };
    URL.revokeObjectURL = (u: string) => void revoked.push(u);
    const a = new Blob(['a']);
    const b = new Blob(['b']);
    const { result, rerender, unmount } = renderHook(({ file }) => useObjectUrl(file), { initialProps: { file: a as Blob | null } });
    expect(result.current).toBe('blob:test/1');
    rerender({ file: b });
    expect(result.current).toBe('blob:test/2');
    expect(revoked).toEqual(['blob:test/1']);
    rerender({ file: null });
    expect(result.current).toBeNull();
    expect(revoked).toEqual(['blob:test/1', 'blob:test/2']);
    rerender({ file: a });
    unmount();
    expect(revoked).toEqual(['blob:test/1', 'blob:test/2', 'blob:test/3']);
    expect(created).toHaveLength(3);
  });
});
