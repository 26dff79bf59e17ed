import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobMap } from '../../jobs/job-types.js';
import type { BackupRun } from '../../backup/backup-runs.repository.js';
import { BackupJobs, type BackupJobsDeps, slotOf } from './backup-jobs.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let dir = '';
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-backup-jobs-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A record of backups kept in memory, newest first, with a real folder for each. */
async function runsOf(specs: Array<Pick<BackupRun, 'trigger' | 'status'>>) {
  const rows: BackupRun[] = [];
  for (const [i, spec] of specs.entries()) {
    const folder = path.join(dir, `backup-${i}`);
    await fs.mkdir(folder);
    await fs.writeFile(path.join(folder, 'manifest.json'), '{}');
    rows.push({
      id: `run-${i}`,
      path: folder,
      slot: null,
      owner: 'test',
      started_at: 1000 * (i + 1),
      finished_at: 1000 * (i + 1) + 500,
      bytes: 10,
      error: null,
      removed_at: null,
      ...spec,
    });
  }
  rows.reverse();
  return {
    rows,
    list: async (limit: number) => rows.slice(0, limit),
    markRemoved: async (id: string) => {
      rows.find((r) => r.id === id)!.removed_at = Date.now();
    },
  };
}

function jobs(over: Partial<BackupJobsDeps> & Pick<BackupJobsDeps, 'runs'>) {
  const enqueued: Array<{ name: string; payload: unknown }> = [];
  const taken: Array<{ trigger: string; slot?: number }> = [];
  const deps: BackupJobsDeps = {
    queue: {
      enqueue: async <N extends keyof JobMap>(name: N, payload: JobMap[N]) => {
        enqueued.push({ name, payload });
      },
    },
    take: async (opts) => {
      taken.push(opts);
      return { id: 'new', path: path.join(dir, 'new'), bytes: 1, tookMs: 1 };
    },
    cron: null,
    keep: 2,
    logger: quiet,
    ...over,
  };
  return { sut: new BackupJobs(deps), enqueued, taken };
}

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

describe('scheduled backups', () => {
  it('keep the newest BACKUP_KEEP good scheduled backups and remove older ones, never manual, pre-migration or failed ones', async () => {
    const runs = await runsOf([
      { trigger: 'scheduled', status: 'ok' }, // oldest
      { trigger: 'manual', status: 'ok' },
      { trigger: 'scheduled', status: 'ok' },
      { trigger: 'before-migration', status: 'ok' },
      { trigger: 'scheduled', status: 'failed' },
      { trigger: 'scheduled', status: 'ok' },
      { trigger: 'scheduled', status: 'ok' }, // newest
    ]);
    const { sut, taken } = jobs({ runs, keep: 2 });
    expect(await sut.scheduled(60_000)).toBe('taken');
    expect(taken).toEqual([{ trigger: 'scheduled', slot: 60_000 }]);
    const gone = runs.rows.filter((r) => r.removed_at !== null).map((r) => r.id);
    expect(gone.sort()).toEqual(['run-0', 'run-2']);
    for (const r of runs.rows) expect(await exists(r.path)).toBe(r.removed_at === null);
    // Nothing more goes on a second pass.
    expect(await sut.removeBeyondKeep()).toBe(0);
  });

  it('do nothing more when another process already took the turn', async () => {
    const runs = await runsOf([
      { trigger: 'scheduled', status: 'ok' },
      { trigger: 'scheduled', status: 'ok' },
      { trigger: 'scheduled', status: 'ok' },
    ]);
    const { sut } = jobs({ runs, keep: 1, take: async () => null });
    expect(await sut.scheduled(60_000)).toBe('already');
    expect(runs.rows.every((r) => r.removed_at === null)).toBe(true);
  });

  it('are asked for at each turn of the pattern, with the turn as the slot every process agrees on', async () => {
    const runs = await runsOf([]);
    const a = jobs({ runs, cron: '* * * * * *' });
    const b = jobs({ runs, cron: '* * * * * *' });
    const stops = [a.sut.schedule(), b.sut.schedule()];
    try {
      await expect.poll(() => a.enqueued.length + b.enqueued.length, { timeout: 5000, interval: 50 }).toBeGreaterThanOrEqual(4);
    } finally {
      for (const stop of stops) stop();
    }
    const slots = (e: typeof a.enqueued) => e.map((j) => (j.payload as JobMap['backup.scheduled']).slot);
    expect(a.enqueued.every((j) => j.name === 'backup.scheduled')).toBe(true);
    // Both processes asked for the same turns (a turn may fall just before one of them started).
    expect(slots(a.enqueued).filter((s) => slots(b.enqueued).includes(s)).length).toBeGreaterThanOrEqual(1);
    for (const s of slots(a.enqueued)) expect(s % 1000).toBe(0);
  });

  it('are not asked for without BACKUP_CRON, and say when the next one is due', () => {
    const off = jobs({ runs: { list: async () => [], markRemoved: async () => {} } });
    expect(off.sut.next()).toBeNull();
    off.sut.schedule()();
    const on = jobs({ runs: { list: async () => [], markRemoved: async () => {} }, cron: '30 3 * * *' });
    const next = on.sut.next()!;
    expect([next.getHours(), next.getMinutes(), next.getSeconds()]).toEqual([3, 30, 0]);
    expect(next.getTime() - Date.now()).toBeGreaterThan(0);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });
});

describe('slotOf', () => {
  it('is the minute a five-field pattern fired in, and the second for a pattern with seconds', () => {
    const t = Date.UTC(2026, 10, 27, 3, 0, 0, 0);
    expect(slotOf('0 3 * * *', t + 17)).toBe(t);
    expect(slotOf('0 3 * * *', t + 59_999)).toBe(t);
    expect(slotOf('*/10 * * * * *', t + 10_250)).toBe(t + 10_000);
  });
});
