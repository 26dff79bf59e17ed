import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/client.js';
import { ownerTag } from '../lib/process-owner.js';
import type { Storage } from '../storage/storage.js';
import type { BackupRunsRepository, BackupTrigger } from './backup-runs.repository.js';
import { claimPartialFolder, unsignPartialFolder } from './backup-folder.js';
import { snapshotDatabase } from './database-snapshot.js';
import { LocalMediaCopy, listS3Keys } from './media-copy.js';
import { MANIFEST_FILE, type Manifest, MEDIA_DIR, MEDIA_LIST_FILE, newManifest, S3_LIST_FILE, sumFile, syncDir, writeSynced } from './manifest.js';

export interface BackupProgress {
  phase: 'media' | 'database' | 'checksums' | 'finishing';
  files: number;
  bytes: number;
}

export interface BackupDeps {
  database: DbHandle;
  storage: Storage;
  config: Pick<Config, 'database' | 'storage'>;
  runs: BackupRunsRepository;
  onProgress?: (p: BackupProgress) => void;
}

export interface BackupResult {
  id: string;
  /** The finished folder. */
  path: string;
  /** Database copy, media (as files, however many are hard links) and lists. */
  bytes: number;
  tookMs: number;
}

/**
 * Takes a backup into a new folder under `to`: the database as of one moment, and the media that
 * moment's rows own (hard links or copies on local disk, a list of keys on S3), each file with its
 * sha256, and the manifest. The folder is `<name>.partial` until all of it is written and flushed,
 * manifest last, and only then gets its name. The run is recorded in backup_runs; with a `slot`
 * (a scheduled turn) another process may have taken it already, and the answer is null.
 */
export async function takeBackup(deps: BackupDeps, opts: { to: string; trigger: BackupTrigger; slot?: number }): Promise<BackupResult | null> {
  const { runs } = deps;
  const progress = deps.onProgress ?? (() => {});
  const started = Date.now();
  const to = path.resolve(opts.to);
  await fs.mkdir(to, { recursive: true });
  const { name, partial } = await claimPartialFolder(to, started, opts.trigger);
  const id = await runs
    .start({ trigger: opts.trigger, path: partial, owner: ownerTag(), slot: opts.slot ?? null, now: started })
    .catch(async (err: unknown) => {
      await fs.rm(partial, { recursive: true, force: true });
      throw err;
    });
  if (id === null) {
    await fs.rm(partial, { recursive: true, force: true });
    return null;
  }
  try {
    const manifest = await fillFolder(deps, partial, progress, { id, trigger: opts.trigger, started });
    progress({ phase: 'finishing', files: manifest.media.files, bytes: manifest.media.bytes });
    await writeSynced(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await unsignPartialFolder(partial);
    await syncDir(partial);
    const final = path.join(to, name);
    await fs.rename(partial, final);
    await syncDir(to);
    // On S3 the objects stay in the bucket: their bytes are not the backup's.
    const bytes = manifest.database.bytes + (manifest.media.kind === 'local' ? manifest.media.bytes : 0) + manifest.media.list.bytes;
    await runs.finish(id, { bytes, path: final });
    return { id, path: final, bytes, tookMs: Date.now() - started };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await runs.fail(id, message).catch(() => {});
    await fs.rm(partial, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}

/** Everything but the manifest, which it answers. */
async function fillFolder(
  deps: BackupDeps,
  folder: string,
  progress: (p: BackupProgress) => void,
  run: { id: string; trigger: BackupTrigger; started: number },
): Promise<Manifest> {
  const { storage, config, database } = deps;
  const local = config.storage.kind === 'local' ? new LocalMediaCopy(storage, path.join(folder, MEDIA_DIR), (p) => progress({ phase: 'media', ...p })) : null;
  if (local) {
    await fs.mkdir(path.join(folder, MEDIA_DIR));
    await local.linkAll();
  }
  progress({ phase: 'database', files: 0, bytes: 0 });
  const snapshot = await snapshotDatabase(database, config.database, folder);
  const owners = { videoIds: new Set(snapshot.videoIds), userIds: new Set(snapshot.userIds) };

  let media: Manifest['media'];
  if (local) {
    await local.linkOwned(owners);
    await local.dropUnowned(owners);
    const files = await local.sums((p) => progress({ phase: 'checksums', ...p }));
    for (const dir of await local.directories()) await syncDir(dir);
    const list = await writeSynced(path.join(folder, MEDIA_LIST_FILE), files.map((f) => `${JSON.stringify(f)}\n`).join(''));
    media = { kind: 'local', files: files.length, bytes: files.reduce((n, f) => n + f.bytes, 0), list: { file: MEDIA_LIST_FILE, ...list } };
  } else {
    const keys = await listS3Keys(storage, owners, (p) => progress({ phase: 'media', ...p }));
    const list = await writeSynced(path.join(folder, S3_LIST_FILE), keys.map((k) => `${JSON.stringify(k)}\n`).join(''));
    media = { kind: 's3', files: keys.length, bytes: keys.reduce((n, k) => n + k.size, 0), list: { file: S3_LIST_FILE, ...list } };
  }

  progress({ phase: 'checksums', files: media.files, bytes: media.bytes });
  const dbSum = await sumFile(path.join(folder, snapshot.file), { sync: true });
  return newManifest({
    id: run.id,
    schema: snapshot.schema,
    trigger: run.trigger,
    startedAt: new Date(run.started).toISOString(),
    finishedAt: new Date().toISOString(),
    database: { kind: snapshot.kind, file: snapshot.file, rows: snapshot.rows, ...dbSum },
    media,
  });
}
