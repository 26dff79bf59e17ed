import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, isElsewhere, type ByteRange, contentTypeFor, type Storage, type StoredObject } from './storage.js';

/** Media in a directory on this machine, served by the API process under /media/. */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(
    private readonly root: string,
    private readonly publicBaseUrl: string | null = null,
  ) {
    fs.mkdirSync(root, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  private get tmpDir() {
    return path.join(this.root, '.tmp');
  }

  private pathOf(key: string) {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  /** Writes to a temporary file and renames it into place, so readers never see half a file. */
  async put(key: string, body: Readable | Buffer, contentType?: string): Promise<StoredObject> {
    const target = this.pathOf(key);
    const tmp = path.join(this.tmpDir, randomBytes(8).toString('hex'));
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp));
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    const { size } = await fsp.stat(target);
    return { size, contentType: contentType ?? contentTypeFor(key) };
  }

  async putFile(key: string, filePath: string, contentType?: string): Promise<StoredObject> {
    return this.put(key, fs.createReadStream(filePath), contentType);
  }

  async download(key: string, filePath: string): Promise<void> {
    await fsp.copyFile(this.pathOf(key), filePath);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await fsp.stat(this.pathOf(key));
      if (!s.isFile()) return null;
      return { size: s.size, contentType: contentTypeFor(key), etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`, lastModified: s.mtime };
    } catch {
      return null;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const p = this.pathOf(key);
    await fsp.access(p);
    return fs.createReadStream(p, range ? { start: range.start, end: range.end } : {});
  }

  async list(prefix: string): Promise<string[]> {
    const dir = this.pathOf(prefix.replace(/\/$/, ''));
    const out: string[] = [];
    const walk = async (d: string, rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(d, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path.join(d, e.name), r);
        else out.push(r);
      }
    };
    await walk(dir, prefix.replace(/\/$/, ''));
    return out.sort();
  }

  async delete(key: string): Promise<void> {
    if (isElsewhere(key)) return;
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fsp.rm(this.pathOf(prefix.replace(/\/$/, '')), { recursive: true, force: true });
  }

  url(key: string): string {
    if (isElsewhere(key)) return key;
    assertSafeKey(key);
    return this.publicBaseUrl ? `${this.publicBaseUrl.replace(/\/$/, '')}/${key}` : `/media/${key}`;
  }

  localPath(key: string): string | null {
    return this.pathOf(key);
  }

  async healthy(): Promise<boolean> {
    try {
      await fsp.access(this.root, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}
