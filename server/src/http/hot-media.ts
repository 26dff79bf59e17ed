import type { Readable } from 'node:stream';
import type { StoredObject } from '../storage/storage.js';

/** The files of a live's broadcast: its playlists and segments, which every viewer asks for within the same second. */
const BROADCAST_FILE = /\/broadcast\/(?:master\.m3u8|r\d+\/[^/]+\.(?:m3u8|m4s|mp4))$/;

/**
 * The broadcast files of lives on air, kept in memory by this process (least recently used first
 * out). Five hundred viewers of a live ask for the same playlist and the same new segment each
 * second: the first read is from storage, the others from here. An entry is used only while the
 * stored object's size and modification time are the ones it was read with, so a playlist that
 * was rewritten, or a segment name a new broadcast used again, is read afresh.
 */
export class HotMedia {
  private readonly entries = new Map<string, { version: string; body: Buffer }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 48 * 1024 * 1024,
    private readonly maxObjectBytes = 4 * 1024 * 1024,
  ) {}

  /** Whether this object is kept here: a broadcast's file, small enough. */
  holds(key: string, st: StoredObject): boolean {
    return st.size <= this.maxObjectBytes && BROADCAST_FILE.test(key);
  }

  get(key: string, st: StoredObject): Buffer | null {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== versionOf(st)) return null;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  /** Reads the object whole and keeps it; answers its bytes. */
  async load(key: string, st: StoredObject, read: () => Promise<Readable>): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await read()) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    this.put(key, versionOf(st), body);
    return body;
  }

  private put(key: string, version: string, body: Buffer): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { version, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }
}

function versionOf(st: StoredObject): string {
  return `${st.size}:${st.lastModified?.getTime() ?? ''}:${st.etag ?? ''}`;
}
