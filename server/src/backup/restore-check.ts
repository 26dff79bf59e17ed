import fs from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../storage/storage.js';
import { BackupFolderError, type Manifest, MEDIA_DIR, type MediaFileEntry, readJsonLines, type S3KeyEntry, sumFile } from './manifest.js';

export interface RestoreProgress {
  phase: 'checking' | 'database' | 'media';
  files: number;
  total: number;
}

/**
 * Checks a backup folder against its manifest before anything is written: the database file's and
 * every media file's sha256 and size (local media), or that every key is in the bucket with its
 * size (S3). The first mismatch, or every missing key, is named in one line.
 */
export async function checkBackup(
  from: string,
  manifest: Manifest,
  bucket: Storage | null,
  progress: (p: RestoreProgress) => void,
): Promise<{ media: MediaFileEntry[] | S3KeyEntry[] }> {
  await expectSum(from, manifest.database.file, manifest.database);
  await expectSum(from, manifest.media.list.file, manifest.media.list);
  const listText = await fs.readFile(path.join(from, manifest.media.list.file), 'utf8');
  if (manifest.media.kind === 'local') {
    const files = readJsonLines<MediaFileEntry>(listText);
    let done = 0;
    for (const f of files) {
      await expectSum(from, `${MEDIA_DIR}/${f.key}`, f);
      progress({ phase: 'checking', files: ++done, total: files.length });
    }
    return { media: files };
  }
  if (!bucket) throw new Error('a backup of media on S3 needs the bucket to check');
  const keys = readJsonLines<S3KeyEntry>(listText);
  const missing: string[] = [];
  const BATCH = 16;
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    const stats = await Promise.all(batch.map((k) => bucket.stat(k.key)));
    batch.forEach((k, j) => {
      const s = stats[j];
      if (!s) missing.push(k.key);
      else if (s.size !== k.size) missing.push(`${k.key} (${s.size} bytes in the bucket, ${k.size} in the backup)`);
    });
    progress({ phase: 'checking', files: Math.min(i + BATCH, keys.length), total: keys.length });
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(', ');
    throw new BackupFolderError(
      `${missing.length} of the ${keys.length} media keys of the backup are not in the bucket as they were: ${shown}${missing.length > 5 ? ', ...' : ''}; restore the bucket (its versions or replica) first; nothing was written`,
    );
  }
  return { media: keys };
}

async function expectSum(from: string, rel: string, expected: { sha256: string; bytes: number }): Promise<void> {
  let actual: { sha256: string; bytes: number };
  try {
    actual = await sumFile(path.join(from, ...rel.split('/')));
  } catch (err) {
    throw new BackupFolderError(`the backup is damaged: ${rel} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}); nothing was written`);
  }
  if (actual.sha256 !== expected.sha256 || actual.bytes !== expected.bytes) {
    throw new BackupFolderError(`the backup is damaged: ${rel} does not match its checksum in the manifest; nothing was written`);
  }
}
