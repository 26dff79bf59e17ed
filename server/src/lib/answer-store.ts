import type { PersonalChanges, PublicChanges } from './public-changes.js';

/** A finished answer as it went out: status, the headers its handler chose, the serialised body. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What a lookup found: the generation current now, and an answer kept under it, if any. */
export interface Lookup {
  /** Null when the store cannot be reached: nothing is served from it or kept in it. */
  generation: number | null;
  answer: StoredAnswer | null;
}

/**
 * Short-lived answers keyed by request, valid for one generation. Every public change moves the
 * generation on, so an answer made before it is never served again; the TTL bounds what no change
 * announces (view counts, trending's sliding window).
 */
export interface AnswerStore extends PublicChanges, PersonalChanges {
  readonly kind: 'memory' | 'redis';
  lookup(key: string): Promise<Lookup>;
  /**
   * Where a viewer's own data stands: it moves on with each of their personal changes and is part
   * of the key of answers kept of that data, so an answer kept before a change is never found
   * again. Null when the store cannot be reached.
   */
  personalVersion(userId: string): Promise<number | null>;
  /** Keeps an answer made while `generation` was current; one made before a change is dropped. */
  keep(key: string, generation: number, answer: StoredAnswer): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  generation: number;
  expiresAt: number;
  bytes: number;
  answer: StoredAnswer;
}

/** Bookkeeping a Map entry costs beside its key and body, roughly. */
const ENTRY_OVERHEAD = 256;

/**
 * One process's answers in its own memory, least recently used first out once their bytes pass
 * the bound. A change empties it at once: nothing older is ever needed again.
 */
export class MemoryAnswerStore implements AnswerStore {
  readonly kind = 'memory' as const;
  private generation = 0;
  private bytes = 0;
  private readonly entries = new Map<string, Entry>();
  /** Each viewer's last personal change: its number in a sequence of this process, and when. */
  private readonly personal = new Map<string, { version: number; at: number }>();
  private personalSeq = 0;

  constructor(private readonly opts: { maxBytes: number; ttlMs: number; now?: () => number }) {}

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  async lookup(key: string): Promise<Lookup> {
    const entry = this.entries.get(key);
    if (!entry) return { generation: this.generation, answer: null };
    this.entries.delete(key);
    if (entry.generation !== this.generation || entry.expiresAt <= this.now()) {
      this.bytes -= entry.bytes;
      return { generation: this.generation, answer: null };
    }
    // Back in at the end: Map keeps insertion order, so the front is the least recently used.
    this.entries.set(key, entry);
    return { generation: this.generation, answer: entry.answer };
  }

  async keep(key: string, generation: number, answer: StoredAnswer): Promise<void> {
    if (generation !== this.generation) return;
    const bytes = ENTRY_OVERHEAD + key.length * 2 + answer.body.length + JSON.stringify(answer.headers).length * 2;
    // One answer may take an eighth of the room at most, so a huge one cannot flush all the rest.
    if (bytes > this.opts.maxBytes / 8) return;
    this.drop(key);
    this.entries.set(key, { generation, expiresAt: this.now() + this.opts.ttlMs, bytes, answer });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  async personalVersion(userId: string): Promise<number> {
    return this.personal.get(userId)?.version ?? 0;
  }

  async personalChanged(userId: string): Promise<void> {
    const now = this.now();
    this.personal.delete(userId);
    this.personal.set(userId, { version: ++this.personalSeq, at: now });
    // A viewer whose last change is two TTLs old is forgotten (back at version 0): every answer
    // kept under 0 was made before that change, so has expired; the sequence never repeats a number.
    for (const [id, change] of this.personal) {
      if (change.at > now - 2 * this.opts.ttlMs) break;
      this.personal.delete(id);
    }
  }

  async changed(): Promise<void> {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** Bytes held now (for tests and figures). */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
