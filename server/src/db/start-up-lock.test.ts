import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/support/databases.js';
import { type DbHandle, openDatabase } from './client.js';

/**
 * The start-up lock on both databases, taken through two handles on one database as two processes
 * would: one holder at a time, the waiting one told, the holder free to write while it holds it, and
 * the lock let go when the work fails. (test/integration/start-up-race.test.ts starts real processes.)
 */
const sites: [string, () => Promise<{ handles: [DbHandle, DbHandle]; drop(): Promise<void> }>][] = [
  [
    'SQLite',
    async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-start-up-lock-'));
      const database = { kind: 'sqlite', file: path.join(dir, 'site.db') } as const;
      const handles: [DbHandle, DbHandle] = [await openDatabase({ database }), await openDatabase({ database }, { migrate: false })];
      return { handles, drop: () => fs.rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const pg = await createPgDatabase();
      const database = { kind: 'postgres', url: pg.url } as const;
      const handles: [DbHandle, DbHandle] = [await openDatabase({ database }), await openDatabase({ database }, { migrate: false })];
      return { handles, drop: () => pg.drop() };
    },
  ],
];

describe.each(sites)('the start-up lock on %s', (_name, open) => {
  let first: DbHandle;
  let second: DbHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const site = await open();
    [first, second] = site.handles;
    drop = site.drop;
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await drop?.();
  });

  it('has one holder at a time, tells the one that waits, and lets the holder write', async () => {
    const events: string[] = [];
    let waits = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const a = first.withStartUpLock(async () => {
      events.push('first starts');
      held();
      await gate;
      await first.db.insertInto('settings').values({ key: 'start-up-lock-test', value: 'first' }).execute();
      events.push('first ends');
    });
    await holding;
    const b = second.withStartUpLock(
      async () => {
        const row = await second.db.selectFrom('settings').select('value').where('key', '=', 'start-up-lock-test').executeTakeFirst();
        events.push(`second finds ${row?.value}`);
      },
      () => waits++,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toEqual(['first starts']);
    expect(waits).toBe(1);
    release();
    await Promise.all([a, b]);
    expect(events).toEqual(['first starts', 'first ends', 'second finds first']);
    expect(waits).toBe(1);
  });

  it('is let go when the work fails', async () => {
    await expect(
      first.withStartUpLock(async () => {
        throw new Error('start-up failed');
      }),
    ).rejects.toThrow('start-up failed');
    let waits = 0;
    expect(
      await second.withStartUpLock(
        async () => 'taken',
        () => waits++,
      ),
    ).toBe('taken');
    expect(waits).toBe(0);
  });
});
