import fs from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../storage/storage.js';
import { type MediaFileEntry, type S3KeyEntry, sumFile } from './manifest.js';

/** The media prefixes a backup holds: one per video row and per user row. Nothing else under the root. */
const OWNER_PREFIXES = ['videos/', 'users/'] as const;

export interface MediaProgress {
  files: number;
  bytes: number;
}

const ownerOf = (key: string) => {
  const [prefix, id] = key.split('/');
  return { prefix: `${prefix}/`, id: id ?? '' };
};

/** Whether the key belongs to a row of the snapshot. */
function ownedBy(key: string, owners: { videoIds: Set<string>; userIds: Set<string> }): boolean {
  const { prefix, id } = ownerOf(key);
  return prefix === 'videos/' ? owners.videoIds.has(id) : prefix === 'users/' && owners.userIds.has(id);
}

/**
 * Local media into a backup folder, as hard links (a copy when the folder is on another filesystem).
 * Files are written whole and renamed into place (storage/local-storage.ts), never changed in place,
 * so a link holds one version of a file for good, whatever the site does to the name afterwards.
 *
 * The database snapshot is taken between two passes, so that every file of every row in it is held
 * even when the site deletes the file meanwhile:
 * 1. `linkAll` before the snapshot: every file under the owner prefixes;
 * 2. `linkOwned` after it: what appeared since (or was replaced since) for rows in the snapshot;
 * 3. `dropUnowned`: files of rows the snapshot does not have (made after it, or deleted before it).
 * A file deleted after the snapshot was linked in pass 1 or 2 unless it was made between the two
 * passes and deleted within the same moments as its row's snapshot: then its row is gone too.
 */
export class LocalMediaCopy {
  /** Key -> the source file (inode, size) it was linked or copied from. */
  private readonly held = new Map<string, { ino: number; size: number }>();
  private heldBytes = 0;
  private copying = false;

  constructor(
    private readonly storage: Storage,
    private readonly target: string,
    private readonly onProgress: (p: MediaProgress) => void = () => {},
  ) {}

  async linkAll(): Promise<void> {
    for (const prefix of OWNER_PREFIXES) for (const key of await this.storage.list(prefix)) await this.hold(key);
  }

  async linkOwned(owners: { videoIds: Set<string>; userIds: Set<string> }): Promise<void> {
    for (const prefix of OWNER_PREFIXES) for (const key of await this.storage.list(prefix)) if (ownedBy(key, owners)) await this.hold(key);
  }

  async dropUnowned(owners: { videoIds: Set<string>; userIds: Set<string> }): Promise<void> {
    const dropped = new Set<string>();
    for (const key of [...this.held.keys()]) {
      if (ownedBy(key, owners)) continue;
      this.heldBytes -= this.held.get(key)!.size;
      this.held.delete(key);
      const { prefix, id } = ownerOf(key);
      dropped.add(`${prefix}${id}`);
    }
    for (const dir of dropped) await fs.rm(path.join(this.target, ...dir.split('/')), { recursive: true, force: true });
  }

  /** Sums every held file from the backup's own copy, flushing each to disk; sorted by key. */
  async sums(onFile: (p: MediaProgress) => void = () => {}): Promise<MediaFileEntry[]> {
    const out: MediaFileEntry[] = [];
    let bytes = 0;
    for (const key of [...this.held.keys()].sort()) {
      const sum = await sumFile(this.pathIn(key), { sync: true });
      out.push({ key, ...sum });
      bytes += sum.bytes;
      onFile({ files: out.length, bytes });
    }
    return out;
  }

  /** Every directory under the target, deepest first, for flushing their entries. */
  async directories(): Promise<string[]> {
    const dirs: string[] = [];
    const walk = async (dir: string) => {
      for (const e of await fs.readdir(dir, { withFileTypes: true })) if (e.isDirectory()) await walk(path.join(dir, e.name));
      dirs.push(dir);
    };
    await walk(this.target);
    return dirs;
  }

  private pathIn(key: string) {
    return path.join(this.target, ...key.split('/'));
  }

  /** Links (or copies) one key, unless it is held from the same source file already. */
  private async hold(key: string): Promise<void> {
    const source = this.storage.localPath(key);
    if (!source) throw new Error('local media copy needs storage on this machine');
    let from: { ino: number; size: number };
    try {
      const { ino, size } = await fs.stat(source);
      from = { ino, size };
    } catch {
      return; // deleted since it was listed: its row, if the snapshot has it, was linked before
    }
    const before = this.held.get(key);
    if (before?.ino === from.ino) return;
    const dest = this.pathIn(key);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    // A replaced file's new version goes in beside the old one and is renamed over it, so that the
    // old one stays if the new one is gone before it is linked.
    const place = before ? `${dest}.relinking` : dest;
    if (!(await this.linkOrCopy(source, place))) return;
    if (place !== dest) await fs.rename(place, dest);
    this.held.set(key, from);
    this.heldBytes += from.size - (before?.size ?? 0);
    this.onProgress({ files: this.held.size, bytes: this.heldBytes });
  }

  /** False when the source is gone meanwhile. */
  private async linkOrCopy(source: string, dest: string): Promise<boolean> {
    await fs.rm(dest, { force: true });
    try {
      if (!this.copying) await fs.link(source, dest);
      else await fs.copyFile(source, dest);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return false;
      if (code !== 'EXDEV') throw err;
    }
    // The backup folder is on another filesystem: copy from here on.
    this.copying = true;
    return this.linkOrCopy(source, dest);
  }
}

/**
 * Media on S3 is not copied (the bucket is the operator's to version or replicate): the backup
 * lists each key the snapshot refers to with its size and ETag, for a restore to check against.
 */
export async function listS3Keys(
  storage: Storage,
  owners: { videoIds: Set<string>; userIds: Set<string> },
  onProgress: (p: MediaProgress) => void = () => {},
): Promise<S3KeyEntry[]> {
  const keys: string[] = [];
  for (const prefix of OWNER_PREFIXES) for (const key of await storage.list(prefix)) if (ownedBy(key, owners)) keys.push(key);
  keys.sort();
  const out: S3KeyEntry[] = [];
  let bytes = 0;
  const BATCH = 16;
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    const stats = await Promise.all(batch.map((k) => storage.stat(k)));
    batch.forEach((key, j) => {
      const s = stats[j];
      // Deleted after the snapshot: the site deleted it, and the bucket's versions hold it if any.
      if (!s) return;
      out.push({ key, size: s.size, etag: s.etag ?? null });
      bytes += s.size;
    });
    onProgress({ files: out.length, bytes });
  }
  return out;
}
