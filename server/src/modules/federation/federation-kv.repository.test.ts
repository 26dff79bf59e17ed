import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Temporal } from '@js-temporal/polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../../db/client.js';
import { FederationKvRepository } from './federation-kv.repository.js';

describe('the key-value store in the database', () => {
  let dir: string;
  let handle: DbHandle;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-kv-'));
    handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'site.db') } });
  });
  afterAll(async () => {
    await handle.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps JSON values under composite keys, replaces, deletes, and forgets what expired', async () => {
    let now = 1_000_000;
    const kv = new FederationKvRepository(handle.db, () => now);
    await kv.set(['remote', 'https://peer.example/a'], { name: 'A', n: 1 });
    expect(await kv.get(['remote', 'https://peer.example/a'])).toEqual({ name: 'A', n: 1 });
    expect(await kv.get(['remote'])).toBeUndefined();
    await kv.set(['remote', 'https://peer.example/a'], 'replaced');
    expect(await kv.get(['remote', 'https://peer.example/a'])).toBe('replaced');
    await kv.delete(['remote', 'https://peer.example/a']);
    expect(await kv.get(['remote', 'https://peer.example/a'])).toBeUndefined();

    await kv.set(['seen', 'x'], true, { ttl: Temporal.Duration.from({ seconds: 30 }) });
    expect(await kv.get(['seen', 'x'])).toBe(true);
    now += 31_000;
    expect(await kv.get(['seen', 'x'])).toBeUndefined();
    // The next write sweeps it away.
    now += 60_000;
    await kv.set(['other'], 1);
    expect(await handle.db.selectFrom('federation_kv').select('key').execute()).toEqual([{ key: '["other"]' }]);
  });
});
