import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
  type SqliteDatabase,
  type TransactionSettings,
} from 'kysely';

/**
 * better-sqlite3 is synchronous: a query that takes 200 ms stops Node's event loop for 200 ms, and
 * every other visitor (the healthcheck included) waits behind it. With a read pool, SELECTs made
 * outside a transaction run on read-only connections in worker threads, so a slow list or search
 * keeps one worker busy instead of the whole process. Writes and transactions stay on the one
 * connection of the main thread, in the order they are made, exactly as before; a read that follows
 * a committed write sees it (WAL readers see every commit made before they start).
 */
export function sqliteDialectWithReadPool(database: SqliteDatabase, file: string, workers: number): SqliteDialect {
  const pool = new ReadPool(file, workers);
  const dialect = new SqliteDialect({ database });
  const createDriver = dialect.createDriver.bind(dialect);
  dialect.createDriver = () => new PooledReadsDriver(createDriver(), pool);
  return dialect;
}

/** The worker's program: one read-only connection, one query at a time. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, stmt);
    }
    parentPort.postMessage({ id, rows: stmt.all(parameters) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  /** The queries sent to this worker and not yet answered. */
  pending: Map<number, Pending>;
  /** Whether it ever answered: one that dies before that (no database file, say) is not started again. */
  answered: boolean;
}

class ReadPool {
  #slots: Slot[] = [];
  #nextId = 1;
  #closing = false;
  /** Why the last worker stopped, when none is left. */
  #failure: Error | null = null;

  constructor(
    private readonly file: string,
    size: number,
  ) {
    for (let i = 0; i < size; i++) this.#slots.push(this.#start());
  }

  #start(): Slot {
    const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, betterSqlite3 } });
    const slot: Slot = { worker, pending: new Map(), answered: false };
    worker.on('message', (msg: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      slot.answered = true;
      const pending = slot.pending.get(msg.id);
      slot.pending.delete(msg.id);
      // An idle worker must not keep the process alive; a busy one must, or a process whose only
      // work is a query in flight (a start-up read before the server listens) exits at once.
      if (!slot.pending.size) worker.unref();
      if (!pending) return;
      if (msg.error) pending.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      else pending.resolve(msg.rows ?? []);
    });
    // A worker that dies fails what it was running and is replaced; the others carry on.
    worker.on('error', (err) => this.#lost(slot, err));
    worker.on('exit', (code) => this.#lost(slot, new Error(`SQLite read worker exited with code ${code}`)));
    worker.unref();
    return slot;
  }

  /** Sends the query to the least busy worker. */
  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (!this.#slots.length) return Promise.reject(this.#failure ?? new Error('The SQLite read pool is closed'));
    const slot = this.#slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (!slot.pending.size) slot.worker.ref();
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, sql, parameters });
    });
  }

  #lost(slot: Slot, err: Error) {
    const at = this.#slots.indexOf(slot);
    if (at === -1) return;
    for (const pending of slot.pending.values()) pending.reject(err);
    slot.pending.clear();
    if (this.#closing || !slot.answered) {
      this.#slots.splice(at, 1);
      this.#failure = err;
    } else {
      this.#slots[at] = this.#start();
    }
  }

  async close() {
    this.#closing = true;
    const slots = this.#slots;
    this.#slots = [];
    const closed = new Error('The SQLite read pool is closed');
    for (const slot of slots) for (const pending of slot.pending.values()) pending.reject(closed);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}

/**
 * Wraps Kysely's SQLite driver. A connection handed out takes the main connection (and its mutex)
 * only when it first needs it: for a write, a raw statement or a transaction. A plain SELECT outside
 * a transaction goes to the read pool and never waits for the main connection.
 */
class PooledReadsDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly pool: ReadPool,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutingConnection(this.inner, this.pool);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const routing = connection as RoutingConnection;
    routing.inTransaction = true;
    await this.inner.beginTransaction(await routing.main(), settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    await this.inner.commitTransaction(await (connection as RoutingConnection).main());
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await this.inner.rollbackTransaction(await (connection as RoutingConnection).main());
  }

  async releaseConnection(connection: DatabaseConnection) {
    await (connection as RoutingConnection).release();
  }

  async destroy() {
    await this.pool.close();
    await this.inner.destroy();
  }
}

class RoutingConnection implements DatabaseConnection {
  inTransaction = false;
  #main: DatabaseConnection | null = null;

  constructor(
    private readonly driver: Driver,
    private readonly pool: ReadPool,
  ) {}

  async main(): Promise<DatabaseConnection> {
    this.#main ??= await this.driver.acquireConnection();
    return this.#main;
  }

  async release() {
    if (this.#main) await this.driver.releaseConnection(this.#main);
    this.#main = null;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.inTransaction && !this.#main && SelectQueryNode.is(compiled.query)) {
      return { rows: (await this.pool.query(compiled.sql, compiled.parameters)) as R[] };
    }
    return (await this.main()).executeQuery<R>(compiled);
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const main = () => this.main();
    return (async function* () {
      yield* (await main()).streamQuery<R>(compiled, chunkSize);
    })();
  }
}
