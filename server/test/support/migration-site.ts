import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type DbHandle, openDatabase } from '../../src/db/client.js';
import { migrateToLatest, migrations } from '../../src/db/migrations.js';
import { createPgDatabase } from './databases.js';

/**
 * A site as it stood before migration `name` (every earlier migration run, none after: later ones
 * may build on what `name` made), on a fresh SQLite file or PostgreSQL database; `drop` removes it.
 */
export async function siteBeforeMigration(kind: 'sqlite' | 'postgres', name: string): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  let site: { handle: DbHandle; drop(): Promise<void> };
  if (kind === 'postgres') {
    const pg = await createPgDatabase();
    site = { handle: await openDatabase({ database: { kind: 'postgres', url: pg.url } }, { migrate: false }), drop: () => pg.drop() };
  } else {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `reelhouse-${name}-`));
    const handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'site.db') } }, { migrate: false });
    site = { handle, drop: () => fs.rm(dir, { recursive: true, force: true }) };
  }
  const { db, dialect } = site.handle;
  await migrateToLatest(db, dialect, { migrations: Object.fromEntries(Object.entries(migrations(dialect)).filter(([n]) => n < name)) });
  return site;
}

/**
 * An account row as the users table stood from migration 0056 (its language column) on, for the
 * migrations after it that need an account to hang rows on.
 */
export function accountRow(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    username: id,
    email: `${id}@example.com`,
    full_name: `Account ${id}`,
    password_hash: 'x',
    avatar_key: null,
    cover_key: null,
    is_demo: 0,
    role: 'user' as const,
    banned_at: null,
    ban_reason: null,
    approval_pending: 0,
    quota_bytes: null,
    daily_quota_bytes: null,
    subscribers_count: 0,
    videos_count: 0,
    email_verified_at: null,
    live_allowed: 0,
    language: null,
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    ...overrides,
  };
}
