/**
 * A job consumer in its own process, for tests that kill a worker with SIGKILL. Reads QUEUE_*
 * settings, prints `started <payload json>` when a job begins, and then never finishes it.
 */
import { openDatabase } from '../../src/db/client.js';
import { createQueue } from '../../src/jobs/create-queue.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const redisUrl = process.env.QUEUE_REDIS_URL || null;
const database = redisUrl
  ? null
  : await openDatabase(
      process.env.QUEUE_DATABASE_URL
        ? { database: { kind: 'postgres', url: process.env.QUEUE_DATABASE_URL } }
        : { database: { kind: 'sqlite', file: process.env.QUEUE_SQLITE_FILE! } },
      { migrate: false },
    );
const queue = createQueue({
  redisUrl,
  db: database?.db as never,
  dialect: database?.dialect ?? 'sqlite',
  logger,
  prefix: process.env.QUEUE_PREFIX,
  leaseMs: Number(process.env.QUEUE_LEASE_MS ?? 1000),
});
await queue.start(
  {
    'video.ladder': async (payload) => {
      process.stdout.write(`started ${JSON.stringify(payload)}\n`);
      await new Promise(() => {});
    },
  },
  { concurrency: 1 },
);
process.stdout.write('ready\n');
