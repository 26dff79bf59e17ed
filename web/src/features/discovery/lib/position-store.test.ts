import { describe, expect, it, vi } from 'vitest';
import { createLocalPositionStore, createMemoryPositionStore, POSITIONS_STORAGE_KEY } from './position-store';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

describe('local position store', () => {
  it('keeps positions across instances, and forgets a video set to null', () => {
    const storage = memoryStorage();
    const a = createLocalPositionStore(storage);
    a.set('v1', 12.34);
    a.set('v2', 40);
    const b = createLocalPositionStore(storage);
    expect(b.get('v1')).toBe(12.3);
    expect(b.get('v2')).toBe(40);
    b.set('v1', null);
    expect(createLocalPositionStore(storage).get('v1')).toBeNull();
    expect(createLocalPositionStore(storage).has('v2')).toBe(true);
  });

  it('keeps only the latest videos, a re-saved one counting as new', () => {
    const storage = memoryStorage();
    const store = createLocalPositionStore(storage, { limit: 3 });
    store.set('a', 1);
    store.set('b', 2);
    store.set('c', 3);
    store.set('a', 4);
    store.set('d', 5);
    expect(store.get('b')).toBeNull();
    expect(store.get('a')).toBe(4);
    expect(JSON.parse(storage.getItem(POSITIONS_STORAGE_KEY) ?? '[]')).toHaveLength(3);
  });

  it('shrugs off broken or missing storage', () => {
    const storage = memoryStorage();
    storage.setItem(POSITIONS_STORAGE_KEY, '{not json');
    expect(createLocalPositionStore(storage).get('a')).toBeNull();
    storage.setItem(POSITIONS_STORAGE_KEY, JSON.stringify([['a', 'x'], ['b', 7], 3]));
    expect(createLocalPositionStore(storage).get('b')).toBe(7);
    const none = createLocalPositionStore(null);
    none.set('a', 5);
    expect(none.get('a')).toBe(5);
    const full = memoryStorage();
    full.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => createLocalPositionStore(full).set('a', 1)).not.toThrow();
  });

  it('tells subscribers, and picks up other tabs through the storage event', () => {
    const storage = memoryStorage();
    const target = new EventTarget();
    const store = createLocalPositionStore(storage, { target });
    const listener = vi.fn();
    store.subscribe(listener);
    store.set('a', 10);
    expect(listener).toHaveBeenCalledTimes(1);
    createLocalPositionStore(storage).set('a', 20);
    const event = Object.assign(new Event('storage'), { key: POSITIONS_STORAGE_KEY });
    target.dispatchEvent(event);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.get('a')).toBe(20);
  });
});

describe('memory position store', () => {
  it('remembers a forgotten video as known-to-be-absent', () => {
    const store = createMemoryPositionStore();
    expect(store.has('a')).toBe(false);
    store.set('a', null);
    expect(store.has('a')).toBe(true);
    expect(store.get('a')).toBeNull();
  });

  it('forgets everything on clear, and tells its listeners once', () => {
    const store = createMemoryPositionStore();
    store.set('a', 30);
    store.set('b', null);
    const listener = vi.fn();
    store.subscribe(listener);
    store.clear();
    expect(store.has('a')).toBe(false);
    expect(store.has('b')).toBe(false);
    expect(listener).toHaveBeenCalledTimes(1);
    store.clear();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
